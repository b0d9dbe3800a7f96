"""Step 5 checks: `holdout_check(solution_src)` names the held-out tests a solution fails."""

import harness
from checks.define import CheckFailed, check, cut, fail, need, pytest_view
from checks.scripted import run_tests

STEP = 5


def failing_names(agent, solution: str) -> list:
    got = agent.call("holdout_check", solution)
    if isinstance(got, dict):
        fail("a list of test names", got, "return the list result['failed'], not the whole run result")
    if type(got) is not list or not all(type(name) is str for name in got):
        hint = "return the names of the failing tests as a list of str"
        if isinstance(got, int):
            hint = "return the names of the failing tests, not how many there are"
        fail("a list of test names", got, hint)
    return got


def expect_names(agent, got: list, solution: str) -> None:
    """`got` names exactly the held-out tests that `solution` fails (as the grader's own run finds them), and it is
    what a run the grader served to this call returned: the list was measured, not remembered or made up."""
    expected = run_tests(solution, harness.HOLDOUT_TESTS)["failed"]
    if sorted(got) != sorted(expected):
        hint = "run harness.HOLDOUT_TESTS against solution_src with harness.run and return result['failed']"
        if not got:
            hint = "did you run the held-out tests? harness.run(solution_src, harness.HOLDOUT_TESTS)"
        raise CheckFailed(f"expected {cut(expected)}, got {cut(got)}", hint)
    measured = [run["result"] for run in agent.served
                if run["solution"] == solution and run["tests"] == harness.HOLDOUT_TESTS]
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
    got = failing_names(agent, solution)
    if got:
        fail("[] (the reference solution passes every held-out test)", got,
             "return only the tests that failed (result['failed']), not all of them")
    expect_names(agent, got, solution)


@check
def names_what_the_century_bug_fails(agent):
    """names the held-out tests that a solution forgetting the century rule fails"""
    solution = agent.script.solutions["forgets_centuries"]
    expect_names(agent, failing_names(agent, solution), solution)


@check
def catches_a_solution_fitted_to_the_visible_tests(agent):
    """catches a solution that only fits the visible tests (a lookup of their years)"""
    solution = agent.script.fitted
    expect_names(agent, failing_names(agent, solution), solution)


test_check = pytest_view(STEP, __name__)
