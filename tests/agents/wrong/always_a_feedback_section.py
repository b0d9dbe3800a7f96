"""Mistake (step 3): always adds a feedback section, even when there is no feedback."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "leaves_the_feedback_out_when_there_is_none", "says": "if feedback:"}


def write_solution(spec, ask=harness.ask, feedback=""):
    prompt = f"Implement this specification in Python:\n{spec}\nYour last attempt failed like this:\n{feedback}\n"
    return extract_code(ask(prompt))
