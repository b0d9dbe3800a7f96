"""Mistake (step 2): puts harness.SPEC in the prompt instead of the `spec` it was given."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401

EXPECTED = {"step": 2, "check": "puts_the_spec_in_the_prompt", "says": "not harness.SPEC"}


def write_tests(spec, ask=harness.ask):
    prompt = f"Specification:\n{harness.SPEC}\nWrite pytest test functions named test_* for it."
    return extract_code(ask(prompt))
