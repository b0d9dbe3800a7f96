"""Mistake (step 4): tells the model only that it failed, not which tests failed."""

import harness
from solutions.agent import extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "feeds_the_failing_tests_back", "says": "result['failed']"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed, code = [], "", False, ""
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = "That did not work. Try again."
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
