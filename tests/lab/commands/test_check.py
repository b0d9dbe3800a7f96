"""`spec2code check`: what a person sees, and the exit status a script sees."""

import json
import subprocess
import sys

import pytest

from lab.commands import check as command
from lab.stubs import render
from tests.helpers import contained_corpus
from tests.paths import REFERENCE_AGENT as REFERENCE
from tests.paths import ROOT

AGENTS = contained_corpus()  # the fixture agents, as the grader's child can run them


def check(capsys, *argv):
    code = command.main(list(argv))
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_check_on_the_reference_says_every_step_passed(capsys):
    code, out = check(capsys, "--agent", str(REFERENCE))
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "5/5 steps passed"
    assert sum(line.startswith("  :) ") for line in lines) >= 25
    assert ":(" not in out and ":|" not in out


def test_a_failed_check_shows_its_message_and_hint_below_it(capsys):
    code, out = check(capsys, "1", "--agent", str(AGENTS / "wrong" / "keeps_python_tag.py"))
    assert code == 1
    lines = out.splitlines()
    at = lines.index("  :( returns the code of a ```python block, without the python tag")
    assert lines[at + 1].strip().startswith("expected ")
    below = lines[at + 1 : next(i for i in range(at + 1, len(lines)) if lines[i].startswith("  :"))]
    assert below[-1].strip() == "hint: did you drop the ```python tag?"  # the message, shown as text, then the hint
    assert all(line.startswith("       ") for line in below)
    assert lines[-1] == "0/1 step passed"


@pytest.mark.slow
def test_steps_not_started_or_blocked_are_neutral(capsys, tmp_path):
    stubs = tmp_path / "agent.py"
    stubs.write_text(render())
    code, out = check(capsys, "--agent", str(stubs))
    assert code == 1 and ":(" not in out and ":)" not in out
    assert "not started: extract_code still raises NotImplementedError" in out
    assert out.splitlines()[-1] == "0/5 steps passed"
    code, out = check(capsys, "2", "--agent", str(AGENTS / "wrong" / "returns_last_block.py"))
    assert "blocked until step 1 (extract_code) passes" in out and "  :| " in out


@pytest.mark.slow
def test_exit_status_is_zero_only_when_every_step_asked_for_passes(capsys):
    broken = str(AGENTS / "wrong" / "vague_feedback.py")  # breaks step 4 only
    assert check(capsys, "1", "2", "3", "5", "--agent", broken)[0] == 0
    assert check(capsys, "4", "--agent", broken)[0] == 1
    assert check(capsys, "--agent", broken)[0] == 1


@pytest.mark.slow
def test_json_format_is_the_engines_report(capsys):
    code, out = check(capsys, "solve", "--agent", str(REFERENCE), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["passed"] == report["total"] == 1
    assert report["steps"][0]["name"] == "solve" and report["steps"][0]["status"] == "passed"


def test_an_unknown_step_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        command.main(["7"])
    assert stopped.value.code == 2
    assert "There is no step '7'" in capsys.readouterr().err


def test_a_load_error_is_printed_once(capsys, tmp_path):
    path = tmp_path / "agent.py"
    path.write_text("def extract_code(reply:\n    return reply\n")
    code, out = check(capsys, "--agent", str(path))
    assert code == 1
    assert out.count("syntax error on line 1") == 1
    assert out.count("not checked, agent.py does not load") == 5


@pytest.mark.slow
def test_what_an_agent_prints_never_reaches_the_report():
    done = subprocess.run(
        [sys.executable, "-m", "lab.commands", "check", "--agent", str(AGENTS / "forging" / "prints_smileys.py")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    lines = [line.strip() for line in (done.stdout + done.stderr).splitlines()]
    assert ":) every check passed" not in lines and "5/5 steps passed" not in lines  # only quoted, as a value
    assert done.stdout.splitlines()[-1] == "0/5 steps passed"


def test_the_agent_variable_selects_the_agent(monkeypatch, capsys, tmp_path):
    path = tmp_path / "elsewhere.py"
    path.write_text(render())
    monkeypatch.setenv("SPEC2CODE_AGENT", str(path))
    code, out = check(capsys, "1")
    assert "elsewhere.py" in out.splitlines()[0] and "not started" in out




@pytest.mark.slow  # two steps on another task; test_grade_command.py grades with --task in the fast lane
def test_a_task_can_be_chosen_for_the_checks_that_run_the_labs_model(capsys):
    code, out = check(capsys, "2", "4", "--task", "parse_duration", "--agent", str(REFERENCE), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["passed"] == 2
    assert [c["name"] for c in report["steps"][1]["checks"]][-1] == "solves_a_task_it_was_never_shown"
    with pytest.raises(Exception, match="There is no task 'nope'"):
        command.main(["--task", "nope"])


@pytest.mark.slow
def test_check_refuses_where_the_walls_are_weaker_than_required(capsys, monkeypatch):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", "process")
    from lab import commands

    assert commands.main(["check", "1", "--agent", str(REFERENCE), "--require-isolation", "user"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spec2code check: refusing to grade: the isolation here is 'process'") and err.count("\n") == 1
