"""Hangs: write_tests never returns. The other steps are still graded; solve, which needs it, is blocked."""

import harness
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401


def write_tests(spec, ask=harness.ask):
    while True:
        pass
