"""Mistake (step 2): sends the spec but never says it wants tests."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401

EXPECTED = {"step": 2, "check": "asks_for_test_functions", "says": "test functions"}


def write_tests(spec, ask=harness.ask):
    return extract_code(ask(f"Here is a specification:\n{spec}\nWhat do you think of it?"))
