"""Correct, written differently: str.split parsing, a while loop, feedback with the failure details."""

import harness


def extract_code(reply):
    if "```" not in reply:
        return reply.strip()
    block = reply.split("```")[1]
    first_line, _, rest = block.partition("\n")
    if first_line.strip() == "python":
        block = rest
    elif first_line.strip() == "":
        block = rest
    return block.strip("\n").rstrip()


def write_tests(spec, ask=harness.ask):
    return extract_code(ask("Write pytest unit tests (functions named test_...) for this spec:\n\n" + spec))


def write_solution(spec, ask=harness.ask, feedback=""):
    prompt = "Implement the following in Python.\n\n" + spec
    if feedback:
        prompt += "\n\nThe previous version failed. Failing tests and details:\n" + feedback
    return extract_code(ask(prompt))


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history = []
    feedback = ""
    while len(history) < max_iters:
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        if result["error"] is None and result["failed"] == [] and result["passed"] >= 1:
            break
        feedback = "Failing tests: " + ", ".join(result["failed"]) + "\n" + (result["error"] or "") + "\n" + result["output"]
    last = history[-1]
    ok = last["result"]["error"] is None and not last["result"]["failed"] and last["result"]["passed"] > 0
    return {"code": last["code"], "tests": tests, "passed": ok, "iters": len(history), "history": history}


def holdout_check(solution_src):
    result = harness.run(solution_src, harness.HOLDOUT_TESTS)
    return list(result["failed"])
