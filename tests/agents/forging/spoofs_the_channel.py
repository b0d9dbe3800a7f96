"""Forgery: writes fake grader messages to every open file descriptor at import, then does no work."""

import json
import os

import harness

EXPECTED = {"may_pass": []}

_lies = [{"ready": ["extract_code"]}] + [{"id": n, "return": "x = 1"} for n in range(1, 50)]
for _fd in range(3, 64):
    for _lie in _lies:
        try:
            os.write(_fd, (json.dumps(_lie) + "\n").encode())
        except OSError:
            break


def extract_code(reply):
    return ""


def write_tests(spec, ask=harness.ask):
    return ""


def write_solution(spec, ask=harness.ask, feedback=""):
    return ""


def solve(spec, ask=harness.ask, max_iters=4):
    return {"code": "", "tests": "", "passed": True, "iters": 1, "history": []}


def holdout_check(solution_src):
    return []
