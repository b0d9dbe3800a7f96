"""Mistake (step 3): never puts the feedback in the prompt, so the model repeats its mistake."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "puts_the_feedback_in_the_prompt", "says": "add it to the prompt"}


def write_solution(spec, ask=harness.ask, feedback=""):
    return extract_code(ask(f"Implement this specification in Python:\n{spec}"))
