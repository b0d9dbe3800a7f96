"""Mistake (step 2): calls harness.ask directly instead of the `ask` it was given."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401

EXPECTED = {"step": 2, "check": "calls_the_given_ask_once", "says": "instead of the ask you were given"}


def write_tests(spec, ask=harness.ask):
    prompt = f"Specification:\n{spec}\nWrite pytest test functions named test_* for it. Reply with one code block."
    return extract_code(harness.ask(prompt))
