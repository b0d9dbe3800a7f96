"""lab/commands/autograder.py: `spec2code autograder` is a spec2code command with one-line usage errors."""

import pytest

from lab import commands as cli
from tests.helpers import exit_status


def test_the_dispatcher_knows_the_autograder_and_report_commands():
    assert cli.COMMANDS["autograder"][0] == "lab.commands.autograder"
    assert cli.COMMANDS["report"][0] == "lab.commands.report"


@pytest.mark.parametrize("args, says", [
    ([], "the following arguments are required: PLATFORM"),
    (["moodle"], "invalid choice: 'moodle'"),
    (["gradescope", "--points", "1,2"], "give one number for every step, or 5 numbers"),
    (["gradescope", "--visibility", "never"], "invalid choice: 'never'"),
    (["gradescope", "--time-limit", "0"], "--time-limit must be 1 or more"),
    (["gradescope", "--out", "{tmp}"], "is a folder: give --out a file name"),
    (["classroom", "--timeout", "0"], "--timeout must be 1 or more"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path, capsys, args, says):
    assert exit_status(cli.main, ["autograder", *[a.format(tmp=tmp_path) for a in args]]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("spec2code autograder: ")
    assert says.format(tmp=tmp_path) in err
