"""Step 5 checks: `holdout_check(solution_src)` names the held-out tests a solution fails."""

import ast
import functools

import harness
from harness import syntax
from checks.define import CheckFailed, check, cut, fail, need, pytest_view
from checks.scripted import run_tests

STEP = 5


def failing_names(agent, solution: str, runs=None) -> list:
    return agent.call("holdout_check", solution, runs=runs)  # a list of str: the engine sees to that


def names_for_a_lab_solution(agent, solution: str) -> list:
    """`holdout_check` of one of the lab's own solutions, which always complete: if the run the lab served it ended
    in an error anyway (a sandbox that crashed under load), the call is made once more, so that a student is never
    judged on the lab's failure."""
    got = failing_names(agent, solution)
    if any(run["result"].get("error") for run in _held_out_runs(agent, solution)):
        got = failing_names(agent, solution)
    return got


def expected_for_a_lab_solution(solution: str) -> list:
    """The held-out tests one of the lab's own solutions fails, by the grader's own run; run once more if it ended
    in an error, and then the lab's error, never the student's. Asked before the agent is called, so that the agent's
    run of the same code is handed the grader's result rather than made again."""
    for _ in range(2):
        result = run_tests(solution, harness.HOLDOUT_TESTS)
        if result["error"] is None:
            return result["failed"]
    raise RuntimeError(f"the lab's own run of the held-out tests ended in an error twice ({result['error']})")


def _held_out_runs(agent, solution: str) -> list:
    return [run for run in agent.served if run["solution"] == solution and run["tests"] == harness.HOLDOUT_TESTS]


def expect_names(agent, got: list, solution: str, expected: list) -> None:
    """`got` names exactly the held-out tests that `solution` fails (`expected`, as the grader's own run finds them),
    and it is what a run the grader served to this call returned: the list was measured, not remembered or made up."""
    if sorted(got) != sorted(expected):
        hint = "run harness.HOLDOUT_TESTS against solution_src with harness.run and return result['failed']"
        if not got:
            hint = "did you run the held-out tests? harness.run(solution_src, harness.HOLDOUT_TESTS)"
        raise CheckFailed(f"expected {cut(expected)}, got {cut(got)}", hint)
    measured = [run["result"] for run in _held_out_runs(agent, solution)]
    need(
        any(sorted(result.get("failed", [])) == sorted(got) for result in measured),
        "expected the list to come from running the held-out tests on this solution with harness.run, but "
        f"holdout_check made {'no such run' if not measured else 'a run that returned another list'}",
        "run harness.HOLDOUT_TESTS against solution_src with harness.run and return result['failed']",
    )


@check
def finds_nothing_wrong_with_a_correct_solution(agent):
    """returns an empty list for a correct solution"""
    solution = agent.script.solutions["reference"]
    expected = expected_for_a_lab_solution(solution)
    got = names_for_a_lab_solution(agent, solution)
    if got:
        fail("[] (the reference solution passes every held-out test)", got,
             "return only the tests that failed (result['failed']), not all of them")
    expect_names(agent, got, solution, expected)


@check
def names_what_the_century_bug_fails(agent):
    """names the held-out tests that a solution forgetting the century rule fails"""
    solution = agent.script.solutions["forgets_centuries"]
    expected = expected_for_a_lab_solution(solution)
    expect_names(agent, names_for_a_lab_solution(agent, solution), solution, expected)


@check
def catches_a_solution_fitted_to_the_visible_tests(agent):
    """catches a solution that only fits the visible tests (a lookup of their years)"""
    solution = agent.script.fitted
    expected = expected_for_a_lab_solution(solution)
    expect_names(agent, names_for_a_lab_solution(agent, solution), solution, expected)


# Solutions whose held-out run cannot complete, and what harness.run says then: every test named as failing, and
# why in `error`. (Served to the agent's harness.run here, rather than waited for, to keep grading quick.)
_HANGS_WHILE_LOADING = "import time\n\nwhile True:\n    time.sleep(1)\n"
_CRASHES_THE_TESTS = "import os\n\nos.write(3, b'[[[[[[[[')\n"
_ERRORS = {
    _HANGS_WHILE_LOADING: "timeout: the run did not finish within 10 s (does the solution loop forever?)",
    _CRASHES_THE_TESTS: "crash: the test process stopped before reporting any result",
}


def _run_that_could_not_complete(solution: str, tests: str) -> dict:
    names = held_out_names(tests)
    return {"passed": 0, "failed": names, "total": len(names), "error": _ERRORS.get(solution, "crash: the run stopped"),
            "output": ""}


@check
def never_reads_an_error_as_nothing_failed(agent):
    """never says a solution generalises when its held-out run ended in an error"""
    for solution, error in _ERRORS.items():
        got = failing_names(agent, solution, runs=_run_that_could_not_complete)
        need(
            bool(got),
            f"expected the held-out tests named as failing when the run could not complete ({error}), got []",
            "an error is never a pass: return result['failed'], which names every test when the run could not "
            "complete (and never return [] because result['error'] is set)",
        )
        expect_names(agent, got, solution, expected=held_out_names(harness.HOLDOUT_TESTS))


def held_out_names(source: str) -> list[str]:
    """The test functions a test source defines, in order (what a run that could not complete names as failing)."""
    return list(_test_names(source))


@functools.lru_cache(maxsize=4)
def _test_names(source: str) -> tuple[str, ...]:  # parsed once a source: a class's every grading asks
    tree = syntax.parse(source)
    return tuple(node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test"))


test_check, pytest_generate_tests = pytest_view(STEP, __name__)
