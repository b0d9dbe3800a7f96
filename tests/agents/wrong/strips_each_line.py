"""Mistake (step 1): strips every line of the block, losing the indentation Python needs."""

import re

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "keeps_the_indentation", "says": "indentation is part of Python code"}


def extract_code(reply):
    match = re.search(r"```(?:python)?\n(.*?)```", reply, re.DOTALL)
    code = match.group(1) if match else reply
    return "\n".join(line.strip() for line in code.strip().splitlines())
