"""Mistake (step 3): keeps the last feedback in a global and sends it again on later calls."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "leaves_the_feedback_out_when_there_is_none", "says": "don't keep feedback"}

_notes = []


def write_solution(spec, ask=harness.ask, feedback=""):
    if feedback:
        _notes.append(feedback)
    prompt = f"Implement this specification in Python:\n{spec}\n"
    if _notes:
        prompt += "Fix what went wrong before:\n" + "\n".join(_notes)
    return extract_code(ask(prompt))
