"""Mistake (step 3): returns the model's whole reply instead of the code in it."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "returns_the_code_of_the_reply", "says": "you returned the whole reply"}


def write_solution(spec, ask=harness.ask, feedback=""):
    prompt = f"Implement this specification in Python:\n{spec}\n"
    if feedback:
        prompt += f"Your last attempt failed:\n{feedback}\n"
    return ask(prompt)
