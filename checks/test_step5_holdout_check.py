"""Step 5 checks: `holdout_check(solution_src)` names the held-out tests a solution fails."""

import harness
from checks.scripted import run_tests
from checks.define import CheckFailed, check, cut, fail, pytest_view
from checks.scripts import FITTED_SOLUTION

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


def expect_names(got: list, solution: str) -> None:
    """`got` names exactly the held-out tests that `solution` fails (as the grader's own run finds them)."""
    expected = run_tests(solution, harness.HOLDOUT_TESTS)["failed"]
    if sorted(got) == sorted(expected):
        return
    hint = "run harness.HOLDOUT_TESTS against solution_src with harness.run and return result['failed']"
    if not got:
        hint = "did you run the held-out tests? harness.run(solution_src, harness.HOLDOUT_TESTS)"
    raise CheckFailed(f"expected {cut(expected)}, got {cut(got)}", hint)


@check
def finds_nothing_wrong_with_a_correct_solution(agent):
    """returns an empty list for a correct solution"""
    got = failing_names(agent, harness.tasks.LEAP_YEAR.reference)
    if got:
        fail("[] (the reference solution passes every held-out test)", got,
             "return only the tests that failed (result['failed']), not all of them")


@check
def names_what_the_century_bug_fails(agent):
    """names the held-out tests that a solution forgetting the century rule fails"""
    solution = harness.tasks.LEAP_YEAR.buggy["forgets_centuries"]
    expect_names(failing_names(agent, solution), solution)


@check
def catches_a_solution_fitted_to_the_visible_tests(agent):
    """catches a solution that only fits the visible tests (a lookup of their years)"""
    expect_names(failing_names(agent, FITTED_SOLUTION), FITTED_SOLUTION)


test_check = pytest_view(STEP, __name__)
