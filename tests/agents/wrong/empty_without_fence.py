"""Mistake (step 1): returns an empty string when the reply has no fence (it is bare code)."""

import re

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "returns_a_reply_without_fences_stripped", "says": "the model sent bare code"}


def extract_code(reply):
    match = re.search(r"```(?:python)?\n(.*?)```", reply, re.DOTALL)
    return match.group(1).strip() if match else ""
