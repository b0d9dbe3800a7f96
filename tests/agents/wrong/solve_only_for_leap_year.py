"""Step 4 mistake: solve works only for leap year (it writes tests for harness.SPEC, whatever spec it is given)."""

import harness
from solutions.agent import extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "solves_a_task_it_was_never_shown", "says": "nothing in solve may be about leap year"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(harness.SPEC, ask)
    code, passed, history, feedback = "", False, [], ""
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = "These tests failed: " + ", ".join(result["failed"])
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
