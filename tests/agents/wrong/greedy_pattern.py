"""Mistake (step 1): a greedy `.*` runs from the first fence to the last one."""

import re

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "returns_only_the_first_block", "says": "greedy"}


def extract_code(reply):
    match = re.search(r"```(?:python)?\n(.*)```", reply, re.DOTALL)
    return match.group(1).strip() if match else reply.strip()
