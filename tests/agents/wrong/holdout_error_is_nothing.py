"""Step 5 mistake: when the held-out run ends in an error, say that nothing failed."""

import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 5, "check": "never_reads_an_error_as_nothing_failed", "says": "an error is never a pass"}


def holdout_check(solution_src):
    result = harness.run(solution_src, harness.HOLDOUT_TESTS)
    if result["error"]:
        return []
    return result["failed"]
