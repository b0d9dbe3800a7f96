"""Mistake (step 5): returns the whole run result instead of the list of failing names."""

import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 5, "check": "finds_nothing_wrong_with_a_correct_solution", "says": "not the whole run result"}


def holdout_check(solution_src):
    return harness.run(solution_src, harness.HOLDOUT_TESTS)
