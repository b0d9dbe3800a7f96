"""Mistake (step 1): a while loop whose condition never changes when the reply has no fence."""

import harness
from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "returns_a_reply_without_fences_stripped",
            "says": "look for a loop in extract_code that never ends"}


def extract_code(reply):
    start = reply.find("```")
    while start < 0:
        pass
    lines = reply[start:].split("\n")
    return "\n".join(lines[1:lines[1:].index("```") + 1]).strip()
