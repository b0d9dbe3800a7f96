"""Mistake (step 3): with feedback, sends only the feedback; the model has forgotten the spec."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "puts_the_feedback_in_the_prompt", "says": "keep the spec in the prompt"}


def write_solution(spec, ask=harness.ask, feedback=""):
    if feedback:
        return extract_code(ask(f"Your code for is_leap_year failed:\n{feedback}\nFix it."))
    return extract_code(ask(f"Implement this specification in Python:\n{spec}"))
