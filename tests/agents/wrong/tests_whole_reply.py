"""Mistake (step 2): returns the model's whole reply, words and fences included."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401

EXPECTED = {"step": 2, "check": "returns_the_code_of_the_reply", "says": "you returned the whole reply"}


def write_tests(spec, ask=harness.ask):
    return ask(f"Specification:\n{spec}\nWrite pytest test functions named test_* for it.")
