"""Correct, written differently: str.find parsing and a recursive repair loop."""

import harness


def extract_code(reply):
    start = reply.find("```")
    if start < 0:
        return reply.strip()
    newline = reply.find("\n", start)
    tag = reply[start + 3 : newline].strip()
    body_start = newline + 1 if tag in ("", "python") else start + 3
    end = reply.find("```", body_start)
    body = reply[body_start:] if end < 0 else reply[body_start:end]
    return body.strip("\n").rstrip()


def write_tests(spec, ask=harness.ask):
    return extract_code(ask("I need pytest test functions for the spec below, each named test_something.\n---\n" + spec))


def write_solution(spec, ask=harness.ask, feedback=""):
    extra = f"\n---\nThe tests reported:\n{feedback}\nPlease correct the function." if feedback else ""
    return extract_code(ask("Write a Python implementation for the spec below.\n---\n" + spec + extra))


def _attempt(spec, ask, tests, left, feedback, history):
    code = write_solution(spec, ask, feedback)
    result = harness.run(code, tests)
    history.append({"code": code, "result": result})
    ok = result["error"] is None and not result["failed"] and result["passed"] > 0
    if ok or left == 1:
        return code, ok
    names = ", ".join(result["failed"]) or "(none)"
    return _attempt(spec, ask, tests, left - 1, f"failing tests: {names}; error: {result['error']}", history)


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history = []
    code, ok = _attempt(spec, ask, tests, max_iters, "", history)
    return {"code": code, "tests": tests, "passed": ok, "iters": len(history), "history": history}


def holdout_check(solution_src):
    result = harness.run(solution_src, harness.HOLDOUT_TESTS)
    failing = []
    for name in result["failed"]:
        failing.append(name)
    return failing
