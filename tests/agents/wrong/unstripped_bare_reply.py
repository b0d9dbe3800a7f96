"""Mistake (step 1): returns a reply with no fence as it came, whitespace and all."""

import re

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "returns_a_reply_without_fences_stripped", "says": "str.strip()"}


def extract_code(reply):
    match = re.search(r"```(?:python)?\n(.*?)```", reply, re.DOTALL)
    return match.group(1).strip() if match else reply
