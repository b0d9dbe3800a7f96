"""Mistake (step 4): keeps going after a passing attempt, always making max_iters attempts."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "stops_at_the_first_passing_attempt", "says": "stop (break) as soon as a run passes"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed, code = [], "", False, ""
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
