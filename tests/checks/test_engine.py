"""The grading engine: verdicts on the reference and the stubs, dependencies, hangs, crashes, load errors, pytest view."""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import checks
from checks.define import checks_of
from lab.stubs import render
from tests.helpers import contained_corpus, self_contained, stubs_with, write_agent
from tests.paths import REFERENCE_AGENT as REFERENCE

AGENTS = contained_corpus()  # the fixture agents, as the grader's child can run them


def statuses(report: dict) -> dict:
    return {s["step"]: s["status"] for s in report["steps"]}


@pytest.fixture(scope="module")
def reference_report():
    return checks.grade_agent(REFERENCE)


def test_the_public_surface_is_pinned():
    assert checks.__all__ == [
        "BLOCKED",
        "FAILED",
        "NOT_STARTED",
        "PASSED",
        "STEPS",
        "ScriptedAsk",
        "Step",
        "agent_path",
        "grade_agent",
        "step",
    ]
    assert [(s.number, s.function, s.needs) for s in checks.STEPS] == [
        (1, "extract_code", ()),
        (2, "write_tests", (1,)),
        (3, "write_solution", (1,)),
        (4, "solve", (1, 2, 3)),
        (5, "holdout_check", ()),
    ]


def test_every_check_has_a_sentence_and_a_unique_name():
    for step in checks.STEPS:
        names = [c.name for c in checks_of(step)]
        assert len(names) >= 3 and len(set(names)) == len(names)
        assert all(c.description and not c.description.endswith(".") for c in checks_of(step))


@pytest.mark.slow
def test_the_reference_passes_every_check(reference_report):
    report = reference_report
    assert report["passed"] == report["total"] == 5
    for step in report["steps"]:
        assert step["status"] == "passed"
        for one in step["checks"]:
            assert (one["status"], one["message"], one["hint"]) == ("passed", "", ""), one


@pytest.mark.slow
def test_the_report_is_plain_json_in_the_documented_shape(reference_report):
    report = json.loads(json.dumps(reference_report))
    assert set(report) == {"agent", "steps", "passed", "total", "isolation"}
    assert report["isolation"] in ("namespaces", "user", "process")
    for step in report["steps"]:
        assert set(step) == {"step", "name", "title", "status", "checks"}
        for one in step["checks"]:
            assert set(one) == {"name", "description", "status", "message", "hint"}


def test_the_stubs_are_not_started_on_every_step(tmp_path):
    report = checks.grade_agent(write_agent(tmp_path, render()))
    assert statuses(report) == {n: "not started" for n in range(1, 6)}
    assert all(c["status"] == "not started" for s in report["steps"] for c in s["checks"])
    assert report["passed"] == 0


@pytest.mark.slow
def test_a_step_asked_for_alone_is_graded_with_what_it_needs(tmp_path):
    broken = AGENTS / "wrong" / "keeps_python_tag.py"
    report = checks.grade_agent(broken, steps=[2])
    assert [s["step"] for s in report["steps"]] == [2] and report["total"] == 1
    assert report["steps"][0]["status"] == "blocked"
    assert "blocked until step 1 (extract_code) passes" in report["steps"][0]["checks"][0]["message"]
    assert statuses(checks.grade_agent(broken, steps=["holdout_check"])) == {5: "passed"}


@pytest.mark.slow
def test_a_started_step_behind_a_stub_is_blocked_not_failed(tmp_path):
    source = stubs_with(write_tests="return extract_code(ask(spec))")
    report = checks.grade_agent(write_agent(tmp_path, source))
    assert statuses(report) == {1: "not started", 2: "blocked", 3: "not started", 4: "not started", 5: "not started"}


@pytest.mark.slow
def test_a_hanging_step_is_stopped_and_the_other_steps_are_still_graded():
    started = time.monotonic()
    report = checks.grade_agent(AGENTS / "special" / "hangs_in_write_tests.py", timeout=1.0)
    assert time.monotonic() - started < 60  # one second for the hang; solve's checks run in full (below)
    assert statuses(report) == {1: "passed", 2: "failed", 3: "passed", 4: "blocked", 5: "passed"}
    # solve is judged with the reference's write_tests standing in for the one that hangs: it would pass.
    assert [c["would"] for c in report["steps"][3]["checks"]] == ["pass"] * len(checks_of(checks.STEPS[3]))
    cause, *others = report["steps"][1]["checks"]
    loop = (AGENTS / "special" / "hangs_in_write_tests.py").read_text().splitlines().index("    while True:") + 1
    assert cause["description"] in [f"write_tests ran for more than 1 s and was stopped (hangs_in_write_tests.py line "
                                     f"{line})" for line in (loop, loop + 1)]  # the loop, or its body
    assert cause["diagnosis"]["kind"] == "timed out" and "loop around ask" in cause["hint"]
    assert all(c["follows"] == cause["name"] and "(fix that first)" in c["message"] for c in others)


def test_a_syntax_error_is_reported_with_its_line_for_every_step(tmp_path):
    source = render().replace("import harness", "import harness\n\n\ndef broken(:\n    pass", 1)
    line = source.splitlines().index("def broken(:") + 1
    path = write_agent(tmp_path, source)
    report = checks.grade_agent(path)
    for step in report["steps"]:
        assert step["status"] == "failed"
        assert [c["message"] for c in step["checks"]] == [f"agent.py has a syntax error on line {line}: invalid syntax"]
        assert step["checks"][0]["diagnosis"]["kind"] == "syntax error" and step["checks"][0]["diagnosis"]["line"] == line


def test_an_exception_at_import_names_its_line(tmp_path):
    source = render() + "\n\nlimit = int('many')\n"
    line = source.splitlines().index("limit = int('many')") + 1
    report = checks.grade_agent(write_agent(tmp_path, source), steps=[1])
    message = report["steps"][0]["checks"][0]["message"]
    assert f"raised ValueError on line {line} while loading" in message


@pytest.mark.slow
def test_a_missing_function_fails_only_its_own_step(tmp_path):
    source = "from solutions.agent import extract_code, solve, write_solution, write_tests\n"
    report = checks.grade_agent(self_contained(write_agent(tmp_path / "own", source), tmp_path))
    assert statuses(report) == {1: "passed", 2: "passed", 3: "passed", 4: "passed", 5: "failed"}
    assert "no function named holdout_check" in report["steps"][4]["checks"][0]["message"]


def test_an_exception_in_a_function_is_shown_with_its_line_not_a_traceback(tmp_path):
    source = stubs_with(extract_code="return reply.splitlines()[5]")
    line = source.splitlines().index("    return reply.splitlines()[5]") + 1
    path = write_agent(tmp_path, "\n" + source, "mine.py")
    report = checks.grade_agent(path, steps=[1])
    cause, *others = report["steps"][0]["checks"]
    assert cause["description"] == f"extract_code raised IndexError (mine.py line {line + 1})"
    assert cause["message"] == f"list index out of range\nline {line + 1}: return reply.splitlines()[5]"
    assert cause["diagnosis"] == {"kind": "raised", "step": 1, "function": "extract_code", "file": "mine.py",
                                  "line": line + 1, "source": "return reply.splitlines()[5]"}
    follow = [c for c in others if c.get("follows") == "raised"]  # the calls that raised; the rest fail on their own
    assert follow and all(c["message"].startswith("follows from: extract_code raised IndexError") for c in follow)
    assert all(c["message"].startswith("expected") for c in others if c["status"] == "failed" and c not in follow)
    assert "Traceback" not in json.dumps(report)


def test_a_value_that_is_not_plain_data_is_named_by_its_type(tmp_path):
    source = stubs_with(extract_code="return (line for line in reply.splitlines())")
    report = checks.grade_agent(write_agent(tmp_path, source), steps=[1])
    cause = report["steps"][0]["checks"][0]
    assert cause["description"] == "extract_code returns <generator>, not a str"
    assert cause["diagnosis"]["kind"] == "wrong return" and cause["hint"] == "return the code as a str"


def test_the_agent_comes_from_the_environment_when_no_path_is_given(monkeypatch, tmp_path):
    monkeypatch.setenv("SPEC2CODE_AGENT", str(write_agent(tmp_path, render(), "mine.py")))
    report = checks.grade_agent(steps=[1])
    assert report["agent"].endswith("mine.py") and report["steps"][0]["status"] == "not started"


def test_a_scripted_ask_counts_the_calls_through_each_route():
    model = checks.ScriptedAsk(["one", "two"])
    assert [model("a"), model("b", via="default"), model("c")] == ["one", "two", "two"]
    assert model.given == ["a", "c"] and model.default == ["b"]


def _pytest_outcomes(agent: Path) -> dict:
    """`python -m pytest checks --agent AGENT -v`: {(step, check): PASSED, FAILED or SKIPPED}."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "checks", "--agent", str(agent), "-v", "-p", "no:cacheprovider"],
        cwd=agent.parent,  # from any folder: the lab's pytest plugin brings --agent
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.findall(r"(?:checks/)?step(\d)_\w+\.py::test_check\[(\w+)\] (PASSED|FAILED|SKIPPED)", done.stdout, re.M)
    return {(int(step), name): word for step, name, word in found}


@pytest.mark.slow
def test_pytest_shows_the_engines_verdicts():
    agent = AGENTS / "wrong" / "tests_via_harness_ask.py"
    report = checks.grade_agent(agent)
    # A step blocked or not started fails in pytest too: a CI gate must never pass an unfinished submission.
    word = {"passed": "PASSED", "failed": "FAILED", "blocked": "FAILED", "not started": "FAILED"}
    engine = {(s["step"], c["name"]): word[c["status"]] for s in report["steps"] for c in s["checks"]}
    assert _pytest_outcomes(agent) == engine
    assert {c["status"] for s in report["steps"] for c in s["checks"]} == {"passed", "failed", "blocked"}


@pytest.mark.slow
def test_pytest_fails_every_check_of_the_untouched_stubs(tmp_path):
    outcomes = _pytest_outcomes(write_agent(tmp_path, render()))
    assert len(outcomes) == sum(len(checks_of(step)) for step in checks.STEPS)
    assert set(outcomes.values()) == {"FAILED"}


@pytest.mark.slow
def test_pytest_in_the_grader_is_out_of_reach_of_an_agent_that_patches_it():
    outcomes = _pytest_outcomes(AGENTS / "forging" / "patches_pytest.py")
    assert len(outcomes) == sum(len(checks_of(step)) for step in checks.STEPS)
    for step in checks.STEPS:
        assert any(outcomes[(step.number, c.name)] != "PASSED" for c in checks_of(step))


@pytest.mark.slow
def test_a_loop_that_asks_without_end_is_reported_at_its_own_line(tmp_path):
    source = stubs_with(
        solve="tests = write_tests(spec, ask)\n    while True:\n        code = write_solution(spec, ask)",
    ).replace("import harness", "import harness\nfrom solutions.agent import extract_code, write_solution, write_tests")
    for name in ("extract_code", "write_tests", "write_solution"):
        source = source.replace(f"\ndef {name}(", f"\ndef _unused_{name}(")
    agent = self_contained(write_agent(tmp_path / "own", source), tmp_path)
    line = agent.read_text().splitlines().index("        code = write_solution(spec, ask)") + 1
    report = checks.grade_agent(agent, steps=[4])
    first = report["steps"][0]["checks"][0]
    assert first["description"] == f"solve was stopped in a loop (agent.py line {line})"  # not the ask it reached
    assert first["diagnosis"]["source"] == "code = write_solution(spec, ask)"
    assert "in write_solution" not in first["message"] and "look at the loop on that line" in first["hint"]


@pytest.mark.slow
def test_a_blocked_step_is_judged_with_the_reference_in_place_of_the_steps_it_waits_for():
    report = checks.grade_agent(AGENTS / "wrong" / "keeps_python_tag.py", steps=[2, 3, 4])
    assert statuses(report) == {2: "blocked", 3: "blocked", 4: "blocked"}
    for step in report["steps"]:  # a correct step is never told about the broken extract_code it calls
        assert {c["message"] for c in step["checks"]} == {"blocked until step 1 (extract_code) passes"}
        assert [c["would"] for c in step["checks"]] == ["pass"] * len(step["checks"]), step


@pytest.mark.slow
def test_a_stand_in_gives_the_learners_process_what_the_reference_returns_never_its_code(tmp_path):
    source = stubs_with(
        extract_code="return reply",
        write_tests="return extract_code(ask(spec)) + '# from ' + extract_code.__code__.co_filename",
    )
    step = checks.grade_agent(write_agent(tmp_path, source), steps=[2])["steps"][0]
    returned = next(c for c in step["checks"] if c["name"] == "returns_the_code_of_the_reply")
    assert returned["would"] == "fail" and "# from " in returned["would_message"]
    assert "child.py" in returned["would_message"] and "solutions" not in returned["would_message"]



@pytest.mark.slow
def test_a_stand_in_called_without_an_ask_asks_through_harness_ask(tmp_path):
    source = stubs_with(
        extract_code="return reply",
        write_tests="return extract_code(ask(spec))",
        solve="tests = write_tests(spec)\n    return {'code': '', 'tests': tests, 'passed': False, 'iters': 0, 'history': []}",
    )
    step = checks.grade_agent(write_agent(tmp_path, source), steps=[4])["steps"][0]
    first = next(c for c in step["checks"] if c["name"] == "writes_the_tests_once")
    assert first["would"] == "pass"  # the stand-in asked through harness.ask, which the check's model answers
    assert "Error" not in json.dumps(step)
