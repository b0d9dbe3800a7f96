"""Fixtures the Jupyter helpers' tests share: an agent whose every step goes wrong in its own way."""


import pytest

from tests.helpers import write_agent

AGENT = """\
import harness


def extract_code(reply):
    raise NotImplementedError("Step 1: write extract_code")


def write_tests(spec, ask=harness.ask):
    return ask("Write pytest tests named test_* for:\\n" + spec)


def write_solution(spec, ask=harness.ask, feedback=""):
    return extract_code(ask(spec))


def solve(spec, ask=harness.ask, max_iters=4):
    while True:
        pass


def holdout_check(solution_src):
    print("checking", len(solution_src))
    return {"a": 1}["b"]
"""


@pytest.fixture
def agent(tmp_path):
    return write_agent(tmp_path, AGENT)
