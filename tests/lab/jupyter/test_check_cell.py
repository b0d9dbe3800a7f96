"""The check cell: one step graded on the file on disk, its verdict shown for each status."""

import importlib.util
import sys

import pytest

import checks
from lab.jupyter import (
    Report,
    check_step,
)
from tests.helpers import write_agent
from tests.paths import LAB_AGENT

# --- the check cell ---------------------------------------------------------------------------------------------


def verdict(status, checks_=(), **extra):
    return {"step": 1, "name": "extract_code", "title": "find the code in a model's reply", "status": status,
            "checks": list(checks_), **extra}


PASSED = {"name": "first_block", "description": "returns the first fenced block", "status": "passed",
          "message": "", "hint": ""}
FAILED = {"name": "python_tag", "description": "drops a leading python tag", "status": "failed",
          "message": "expected 'x = 1', got 'python\\nx = 1'", "hint": "did you drop the ```python tag?"}


@pytest.fixture
def fake_grader(monkeypatch):
    """Stand in for checks.grade_agent, recording what it was asked to grade."""
    calls = []

    def install(step_result):
        def grade_agent(agent_path=None, steps=None, **_):
            calls.append((agent_path, steps))
            return {"agent": agent_path, "steps": [step_result], "passed": 0, "total": 1}

        monkeypatch.setattr(checks, "grade_agent", grade_agent, raising=False)
        return calls

    return install


def test_a_passed_step_says_passed_and_lists_its_checks(fake_grader, tmp_path):
    calls = fake_grader(verdict("passed", [PASSED]))
    report = check_step(1, agent_path=write_agent(tmp_path, "x = 1\n"))
    assert calls == [(str(tmp_path / "agent.py"), [1])]
    assert repr(report).splitlines()[0].startswith("Step 1 · extract_code (find the code in a model's reply): passed")
    assert ":) returns the first fenced block" in repr(report)
    html = report._repr_html_()
    assert 'data-status="passed"' in html and "returns the first fenced block" in html


def test_a_failed_check_shows_its_message_and_hint(fake_grader, tmp_path):
    fake_grader(verdict("failed", [PASSED, FAILED]))
    report = check_step(1, agent_path=write_agent(tmp_path, "x = 1\n"))
    text = repr(report)
    assert "failed: 1 of 2 checks pass" in text
    assert ":( drops a leading python tag" in text
    assert "expected 'x = 1'" in text and "hint: did you drop the ```python tag?" in text
    html = report._repr_html_()
    assert 'data-status="failed"' in html and "did you drop the ```python tag?" in html


def test_a_step_not_started_is_one_calm_line_not_a_wall_of_red(fake_grader, tmp_path):
    waiting = dict(PASSED, status="not started")
    fake_grader(verdict("not started", [waiting]))
    text = repr(check_step(1, agent_path=write_agent(tmp_path, "x = 1\n")))
    assert "not started: `extract_code`" in text and "NotImplementedError" in text
    assert ":(" not in text
    assert "What the check looks for:" in text and "- returns the first fenced block" in text


def test_a_blocked_step_says_what_it_waits_for(fake_grader, tmp_path):
    waiting = dict(PASSED, status="blocked", message="blocked until step 1 passes")
    fake_grader(verdict("blocked", [waiting]))
    report = check_step(1, agent_path=write_agent(tmp_path, "x = 1\n"))
    assert "blocked: blocked until step 1 passes" in repr(report)
    assert 'data-status="blocked"' in report._repr_html_()


def test_a_grader_failure_is_a_message_not_a_traceback(monkeypatch, tmp_path):
    def broken(*_, **__):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(checks, "grade_agent", broken, raising=False)
    text = repr(check_step(1, agent_path=write_agent(tmp_path, "x = 1\n")))
    assert "could not be checked: RuntimeError: engine exploded. This is a problem in the lab" in text


def test_html_escapes_what_the_learner_wrote():
    evil = dict(FAILED, message="got '<script>alert(1)</script>'")
    html = Report(verdict("failed", [evil]), LAB_AGENT)._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_the_learner_is_told_when_the_kernel_holds_an_older_agent(fake_grader, tmp_path, monkeypatch):
    fake_grader(verdict("passed", [PASSED]))
    path = write_agent(tmp_path, "def extract_code(reply):\n    return reply\n")
    spec = importlib.util.spec_from_file_location("old_agent_in_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "old_agent_in_kernel", module)
    assert "Note:" not in repr(check_step(1, agent_path=path))  # the same code on disk: nothing to say

    write_agent(tmp_path, "def extract_code(reply):\n    return reply.strip()\n")
    text = repr(check_step(1, agent_path=path))
    assert "Note: This kernel imported an older version" in text and "`old_agent_in_kernel`" in text
    assert "Restart the kernel" in text


# --- the "try it" cells -----------------------------------------------------------------------------------------


# --- the charts -------------------------------------------------------------------------------------------------


def test_a_lab_error_says_how_to_fix_it_without_blaming_the_lab(monkeypatch, tmp_path):
    from harness.errors import SettingsError

    def unsettled(*_, **__):
        raise SettingsError("Unknown setting SPEC2CODE_MODLE. Did you mean SPEC2CODE_MODEL?")

    monkeypatch.setattr(checks, "grade_agent", unsettled, raising=False)
    text = repr(check_step(1, agent_path=write_agent(tmp_path, "x = 1\n")))
    assert "could not be checked: SettingsError: Unknown setting SPEC2CODE_MODLE." in text
    assert "instructor" not in text
