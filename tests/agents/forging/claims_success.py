"""Forgery: solve returns a dict that claims success without asking or running; holdout_check says all is well.

Steps 1-3 are the reference's and may pass.
"""

import harness
from solutions.agent import extract_code, write_solution, write_tests  # noqa: F401

EXPECTED = {"may_pass": [1, 2, 3]}


def solve(spec, ask=harness.ask, max_iters=4):
    code = harness.tasks.LEAP_YEAR.reference
    tests = "def test_it():\n    assert is_leap_year(2024)\n"
    result = {"passed": 1, "failed": [], "total": 1, "error": None, "output": ""}
    return {"code": code, "tests": tests, "passed": True, "iters": 1, "history": [{"code": code, "result": result}]}


def holdout_check(solution_src):
    return []
