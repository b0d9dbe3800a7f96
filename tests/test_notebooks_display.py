"""The notebook side of the checks: verdicts rendered for each status, safe "try it" calls, and the charts."""

import importlib.util
import sys
import textwrap

import pytest

import checks
from tests.paths import LAB_AGENT
from lab import jupyter as notebook
from lab.jupyter import Report, check_step, contrast_chart, rounds_chart, rounds_table, try_function

PNG = b"\x89PNG\r\n\x1a\n"


def write_agent(tmp_path, source, name="agent.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


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

AGENT = """\
import harness


def extract_code(reply):
    raise NotImplementedError("Step 1: write extract_code")


def write_tests(spec, ask=harness.ask):
    return ask("Write pytest tests named test_* for:\\n" + spec)


def write_solution(spec, ask=harness.ask, feedback=""):
    return extract_code(ask(spec))


def solve(spec, ask=harness.ask, max_iters=4):
    while True:
        pass


def holdout_check(solution_src):
    print("checking", len(solution_src))
    return {"a": 1}["b"]
"""


@pytest.fixture
def agent(tmp_path):
    return write_agent(tmp_path, AGENT)


def test_a_stub_is_not_started(agent):
    tried = try_function("extract_code", "x", agent_path=agent)
    assert not tried.ok
    assert tried.problem.startswith("Step 1 (`extract_code`) is not started yet")
    assert 'data-ok="false"' in tried._repr_html_()


def test_a_function_that_calls_a_stub_names_the_stub(agent):
    tried = try_function("write_solution", "spec", agent_path=agent)
    assert tried.problem.startswith("`write_solution` calls step 1 (`extract_code`), which is not started yet")


def test_a_hang_is_stopped_with_a_message(agent):
    tried = try_function("solve", "spec", agent_path=agent, timeout=1)
    assert "did not finish within 1 s, so it was stopped" in tried.problem


def test_an_exception_names_the_line_of_the_learners_file(agent):
    tried = try_function("holdout_check", "abc", agent_path=agent)
    assert tried.problem.startswith("`holdout_check` raised KeyError: 'b'")
    assert "line 23 of" in tried.problem and "`return {\"a\": 1}[\"b\"]`" in tried.problem
    assert tried.printed == "checking 3\n"


def test_the_calls_to_the_model_are_recorded_and_the_value_returned(agent):
    tried = try_function("write_tests", "is_leap_year(year) SPEC", agent_path=agent)
    assert tried.ok and "def test_" in tried.value
    [(prompt, reply)] = tried.asks
    assert prompt.endswith("is_leap_year(year) SPEC") and reply == tried.value
    assert "write_tests returned:" in repr(tried) and "--- ask #1: the prompt ---" in repr(tried)


def test_the_model_can_be_chosen_for_one_call(tmp_path):
    path = write_agent(tmp_path, "import os\n\ndef which():\n    return os.environ.get('SPEC2CODE_MODEL')\n")
    assert try_function("which", agent_path=path, model="gaming").value == "gaming"


def test_a_syntax_error_is_shown_with_its_line(tmp_path):
    path = write_agent(tmp_path, "def extract_code(reply):\n    return reply\n\ndef write_tests(spec:\n    pass\n")
    tried = try_function("extract_code", "x", agent_path=path)
    assert "has a syntax error on line 4" in tried.problem and "def write_tests(spec:" in tried.problem


def test_a_missing_function_and_an_exit_at_import_are_messages(tmp_path):
    path = write_agent(tmp_path, "def extract_code(reply):\n    return reply\n")
    assert "has no function `solve`" in try_function("solve", "x", agent_path=path).problem
    path = write_agent(tmp_path, "import os\nos._exit(3)\n", name="exits.py")
    assert "stopped without a result (exit code 3)" in try_function("solve", agent_path=path).problem


def test_arguments_that_cannot_cross_to_the_child_are_a_message(agent):
    tried = try_function("extract_code", lambda: 1, agent_path=agent)
    assert "cannot be sent to the child process" in tried.problem


# --- the charts -------------------------------------------------------------------------------------------------


def run_result(passed, total, failed=(), error=None):
    return {"passed": passed, "failed": list(failed), "total": total, "error": error, "output": ""}


SOLVED = {
    "code": "def is_leap_year(year): ...",
    "tests": "def test_x(): ...",
    "passed": True,
    "iters": 2,
    "history": [
        {"code": "v1", "result": run_result(3, 4, ["test_centuries"])},
        {"code": "v2", "result": run_result(4, 4)},
    ],
}


def test_a_solve_run_is_a_round_by_round_table():
    table = rounds_table(SOLVED)
    assert repr(table).splitlines()[0] == "solve() passed after 2 round(s)"
    assert table.rows == [[1, "3 of 4", "test_centuries", "-"], [2, "4 of 4", "-", "-"]]
    assert "<table" in table._repr_html_()


def test_the_round_chart_is_a_deterministic_png():
    first, second = rounds_chart(SOLVED), rounds_chart(SOLVED)
    assert first.png.startswith(PNG) and first.png == second.png
    assert repr(first) == "Tests passed per round: round 1: 3/4, round 2: 4/4"


def test_a_try_that_failed_is_shown_in_place_of_the_table(agent):
    tried = try_function("extract_code", "x", agent_path=agent)
    assert "not started" in repr(rounds_table(tried)) and "not started" in repr(rounds_chart(tried))
    assert "not a result of solve()" in repr(rounds_table({"code": "x"}))


def test_the_contrast_runs_the_held_out_tests_on_each_result():
    import harness

    honest = dict(SOLVED, code=harness.tasks.LEAP_YEAR.reference)
    buggy = dict(SOLVED, code=harness.tasks.LEAP_YEAR.buggy["forgets_centuries"])
    chart = contrast_chart({"honest": honest, "buggy": buggy})
    assert chart.png.startswith(PNG)
    assert repr(chart).startswith("honest: visible 4/4, held-out 8/8; buggy: visible 4/4, held-out ")
    assert "test_centuries_are_common_years" in repr(notebook.contrast_table({"buggy": buggy}))


def test_a_lab_error_says_how_to_fix_it_without_blaming_the_lab(monkeypatch, tmp_path):
    from harness.errors import SettingsError

    def unsettled(*_, **__):
        raise SettingsError("Unknown setting SPEC2CODE_MODLE. Did you mean SPEC2CODE_MODEL?")

    monkeypatch.setattr(checks, "grade_agent", unsettled, raising=False)
    text = repr(check_step(1, agent_path=write_agent(tmp_path, "x = 1\n")))
    assert "could not be checked: SettingsError: Unknown setting SPEC2CODE_MODLE." in text
    assert "instructor" not in text
