"""Forgery: disables pytest's failures in its own process, and does no real work."""

import pytest
import _pytest.outcomes

import harness

EXPECTED = {"may_pass": []}


def _nothing(*args, **kwargs):
    return None


pytest.fail = _pytest.outcomes.fail = _nothing
pytest.skip = _nothing
pytest.raises = _nothing


def extract_code(reply):
    return ""


def write_tests(spec, ask=harness.ask):
    return ""


def write_solution(spec, ask=harness.ask, feedback=""):
    return ""


def solve(spec, ask=harness.ask, max_iters=4):
    return {"code": "", "tests": "", "passed": True, "iters": 1, "history": []}


def holdout_check(solution_src):
    return []
