"""Mistake (step 4): the loop waits for a pass that its body never looks for, so it never ends."""

import harness
from solutions.agent import extract_code, holdout_check, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 4, "check": "writes_the_tests_once", "says": "solve ran for more than 10 s and was stopped"}


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    code = write_solution(spec, ask)
    result = harness.run(code, tests)
    history, passed = [{"code": code, "result": result}], False
    while not passed:  # passed is never set in the loop
        code = code
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}
