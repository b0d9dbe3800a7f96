"""Attack: each call runs a solution that hangs, 30 times at the longest timeout, to hold the grader for minutes."""

import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401

HANGS = "import time\ntime.sleep(3600)\n"  # hangs without spinning: the grader's time is what it takes, not its CPU


def holdout_check(solution_src):
    for _ in range(30):
        harness.run(HANGS, harness.HOLDOUT_TESTS, timeout=10)
    return harness.run(solution_src, harness.HOLDOUT_TESTS)["failed"]
