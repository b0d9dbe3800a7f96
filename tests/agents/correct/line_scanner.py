"""Correct, written differently: a line-by-line scanner, for-else loop, short prompts."""

import harness


def extract_code(reply):
    lines = reply.splitlines()
    inside, found, code = False, False, []
    for line in lines:
        if line.strip().startswith("```"):
            if inside:
                break
            inside, found = True, True
            continue
        if inside:
            code.append(line)
    if not found:
        return reply.strip()
    while code and not code[0].strip():
        code.pop(0)
    return "\n".join(code).rstrip()


def write_tests(spec, ask=harness.ask):
    reply = ask(f"{spec}\n\nWrite pytest tests for this. Use plain test functions.")
    return extract_code(reply)


def write_solution(spec, ask=harness.ask, feedback=""):
    parts = [spec, "Write the function."]
    if feedback:
        parts.insert(1, "Last time it went wrong:\n" + feedback)
    return extract_code(ask("\n\n".join(parts)))


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history = []
    feedback = ""
    code = ""
    for attempt in range(1, max_iters + 1):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"attempt": attempt, "code": code, "result": result})
        if not result["error"] and not result["failed"] and result["passed"]:
            passed = True
            break
        feedback = "failed: " + " ".join(result["failed"]) + (f" (error: {result['error']})" if result["error"] else "")
    else:
        passed = False
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}


def holdout_check(solution_src):
    return [name for name in harness.run(solution_src, harness.HOLDOUT_TESTS)["failed"]]
