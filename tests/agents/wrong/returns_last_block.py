"""Mistake (step 1): returns the last fenced block instead of the first."""

import re

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "returns_only_the_first_block", "says": "you returned the last block"}


def extract_code(reply):
    blocks = re.findall(r"```(?:python)?\n(.*?)```", reply, re.DOTALL)
    return blocks[-1].strip() if blocks else reply.strip()
