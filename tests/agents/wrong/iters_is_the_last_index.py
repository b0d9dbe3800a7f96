"""Mistake (step 4): returns the loop index as iters, one less than the attempts made."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "counts_and_records_each_attempt", "says": "iters=3"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed, code, index = [], "", False, "", 0
    for index in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": index, "history": history}
