"""Mistake (step 5): runs new tests from the model instead of the held-out tests it was never shown."""

import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 5, "check": "names_what_the_century_bug_fails", "says": "step 5 runs the held-out tests"}


def holdout_check(solution_src):
    tests = write_tests(harness.SPEC)
    return harness.run(solution_src, tests)["failed"]
