"""Mistake (step 5): returns how many held-out tests failed, not which."""

import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 5, "check": "names_what_the_century_bug_fails", "says": "not how many"}


def holdout_check(solution_src):
    return len(harness.run(solution_src, harness.HOLDOUT_TESTS)["failed"])
