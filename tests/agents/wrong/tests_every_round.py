"""Mistake (step 4): asks for new tests in every round, so the goal moves while the solution chases it."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "writes_the_tests_once", "says": "write the tests once, before the loop"}


def solve(spec, ask=harness.ask, max_iters=4):
    history, feedback, passed, code, tests = [], "", False, "", ""
    for _ in range(max_iters):
        tests = write_tests(spec, ask)
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
