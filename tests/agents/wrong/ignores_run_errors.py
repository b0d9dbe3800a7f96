"""Mistake (step 4): looks only at the test counts, so a run that stopped with an error can "pass"."""

import harness
from solutions.agent import _describe_failure, extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "a_run_that_errors_is_not_a_pass", "says": "no error"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback, passed, code = [], "", False, ""
    for _ in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        passed = not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
