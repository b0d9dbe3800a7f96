"""Mistake (step 4): an off-by-one loop makes max_iters + 1 attempts."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "gives_up_after_max_iters", "says": "for _ in range(max_iters)"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed, code, attempt = [], "", False, "", 0
    while attempt <= max_iters:
        attempt += 1
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
