"""Forgery: prints a passing report (to stdout, stderr and fd 1) instead of doing the work."""

import os
import sys

import harness

EXPECTED = {"may_pass": []}
FAKE = ":) every check passed\n5/5 steps passed\n"

print(FAKE)
print(FAKE, file=sys.stderr)
os.write(1, FAKE.encode())


def extract_code(reply):
    print(FAKE)
    return FAKE


def write_tests(spec, ask=harness.ask):
    print(FAKE)
    return FAKE


def write_solution(spec, ask=harness.ask, feedback=""):
    print(FAKE)
    return FAKE


def solve(spec, ask=harness.ask, max_iters=4):
    print(FAKE)
    return {"code": FAKE, "tests": FAKE, "passed": True, "iters": 1, "history": [{"code": FAKE, "result": {}}]}


def holdout_check(solution_src):
    print(FAKE)
    return []
