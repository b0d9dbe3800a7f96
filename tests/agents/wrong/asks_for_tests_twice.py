"""Mistake (step 2): asks the model twice and keeps the second reply."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401

EXPECTED = {"step": 2, "check": "calls_the_given_ask_once", "says": "called it 2 times"}


def write_tests(spec, ask=harness.ask):
    prompt = f"Specification:\n{spec}\nWrite pytest test functions named test_* for it."
    ask(prompt)
    return extract_code(ask(prompt))
