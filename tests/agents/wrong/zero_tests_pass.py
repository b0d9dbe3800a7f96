"""Mistake (step 4): "no failures" counts as a pass, even when no test ran."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "a_run_of_zero_tests_is_not_a_pass", "says": "at least one passed test"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed, code = [], "", False, ""
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = result["error"] is None and not result["failed"]
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
