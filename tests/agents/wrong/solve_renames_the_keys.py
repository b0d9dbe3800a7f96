"""Mistake (step 4): returns the loop's results under names of its own, not the keys the contract fixes."""

import harness
from solutions.agent import extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "writes_the_tests_once", "says": "solve returns a dict without code, tests, iters"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    code, passed, history, feedback = "", False, [], ""
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = "These tests failed: " + ", ".join(result["failed"]) + "\n" + result["output"]
    return {"solution": code, "test_code": tests, "passed": passed, "iterations": len(history), "history": history}
