"""lab/commands/parsing.py: every spec2code command answers a bad option in one line that names its --help."""

import subprocess
import sys

import pytest

from lab import commands as cli
from lab.commands.parsing import Parser
from tests.paths import ROOT


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_every_command_answers_a_bad_option_in_one_line(name, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main([name, "--no-such-option"])
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"spec2code {name}: ")
    assert err.endswith(f" (see spec2code {name} --help)\n")
    assert "usage:" not in err


def test_the_error_says_what_argparse_found_wrong(capsys):
    parser = Parser(prog="spec2code demo")
    parser.add_argument("--count", type=int)
    with pytest.raises(SystemExit):
        parser.parse_args(["--count", "many"])
    assert capsys.readouterr().err == (
        "spec2code demo: argument --count: invalid int value: 'many' (see spec2code demo --help)\n"
    )


def test_a_subcommand_names_its_command_and_its_own_help(capsys):
    parser = Parser(prog="spec2code demo")
    parser.add_subparsers(dest="platform", required=True).add_parser("one").add_argument("--n", type=int)
    with pytest.raises(SystemExit):
        parser.parse_args(["one", "--n", "x"])
    assert capsys.readouterr().err == (
        "spec2code demo: argument --n: invalid int value: 'x' (see spec2code demo one --help)\n"
    )


def test_help_is_still_argparse_help(capsys):
    with pytest.raises(SystemExit) as stopped:
        Parser(prog="spec2code demo", description="A demo.").parse_args(["--help"])
    assert stopped.value.code == 0 and "usage: spec2code demo" in capsys.readouterr().out


def test_the_installed_command_exits_2_with_one_line():
    done = subprocess.run([sys.executable, "-m", "lab.commands", "trail", "--bogus"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("spec2code trail: the following arguments are required: FILE "
                           "(see spec2code trail --help)\n")
