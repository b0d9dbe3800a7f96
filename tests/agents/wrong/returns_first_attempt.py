"""Mistake (step 4): returns the first attempt's code, not the last one's."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "returns_the_last_attempt", "says": "you returned the first attempt"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed = [], "", False
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": history[0]["code"], "tests": tests, "passed": passed, "iters": len(history), "history": history}
