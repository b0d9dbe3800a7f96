"""Mistake (step 1): takes everything between the fences, so the `python` tag stays in the code."""

import re

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "drops_the_python_tag", "says": "did you drop the ```python tag?"}


def extract_code(reply):
    match = re.search(r"```(.*?)```", reply, re.DOTALL)
    return match.group(1).strip() if match else reply.strip()
