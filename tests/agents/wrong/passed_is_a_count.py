"""Mistake (step 4): returns the number of passed tests as `passed`, not True or False."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "stops_at_the_first_passing_attempt", "says": "True or False"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, code, result = [], "", "", {"passed": 0}
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        if result["error"] is None and not result["failed"] and result["passed"] > 0:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": result["passed"], "iters": len(history), "history": history}
