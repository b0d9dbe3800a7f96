"""Forgery: replaces harness.run in its own process with one that always reports a pass.

Steps 1-3 are the reference's and may pass; solve and holdout_check then believe every run passes.
"""

import harness
import harness.sandbox
from solutions.agent import extract_code, holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"may_pass": [1, 2, 3]}


def _always_passes(solution_src, test_src, *, timeout=10.0):
    return {"passed": 5, "failed": [], "total": 5, "error": None, "output": ""}


harness.run = harness.sandbox.run = _always_passes
