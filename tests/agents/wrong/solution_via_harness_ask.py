"""Mistake (step 3): calls harness.ask directly instead of the `ask` it was given."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "calls_the_given_ask_once", "says": "instead of the ask you were given"}


def write_solution(spec, ask=harness.ask, feedback=""):
    prompt = f"Implement this specification in Python:\n{spec}\n"
    if feedback:
        prompt += f"Your last attempt failed:\n{feedback}\n"
    return extract_code(harness.ask(prompt))
