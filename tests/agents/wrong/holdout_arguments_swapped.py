"""Mistake (step 5): passes the tests as the solution and the solution as the tests, so nothing runs."""

import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 5, "check": "names_what_the_century_bug_fails", "says": "harness.run(solution_src, harness.HOLDOUT_TESTS)"}


def holdout_check(solution_src):
    return harness.run(harness.HOLDOUT_TESTS, solution_src)["failed"]
