"""Correct, written differently: long role-play prompts, a regex over lines, history with extra fields."""

import re

import harness

ROLE = "You are a careful senior Python engineer who writes small, well-tested functions."


def extract_code(reply):
    match = re.search(r"```[^\n`]*\n(.*?)\n?[ \t]*```", reply, re.S)
    if match is None:
        return reply.strip()
    return match.group(1).strip("\n").rstrip()


def write_tests(spec, ask=harness.ask):
    prompt = (
        f"{ROLE}\n\nHere is a specification.\n\n<spec>\n{spec}\n</spec>\n\n"
        "Please write a pytest test module for it: several test functions whose names start with test_, "
        "covering normal cases and edge cases and invalid input. The tests should call the function "
        "directly, without importing it. Answer with the code in a fenced block."
    )
    return extract_code(ask(prompt))


def write_solution(spec, ask=harness.ask, feedback=""):
    prompt = f"{ROLE}\n\nPlease implement this specification.\n\n<spec>\n{spec}\n</spec>\n"
    if feedback:
        prompt += f"\n<feedback>\n{feedback}\n</feedback>\nYour earlier attempt was wrong; please correct it.\n"
    return extract_code(ask(prompt + "\nAnswer with the function in a fenced block."))


def solve(spec, ask=harness.ask, max_iters=4):
    tests = write_tests(spec, ask)
    history, feedback = [], ""
    for number in range(max_iters):
        code = write_solution(spec, ask, feedback)
        result = harness.run(code, tests)
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        history.append({"code": code, "result": result, "passed": passed, "feedback": feedback})
        if passed:
            break
        feedback = f"Tests that failed: {result['failed']}\nError: {result['error']}\nOutput:\n{result['output']}"
    return {
        "code": history[-1]["code"],
        "tests": tests,
        "passed": history[-1]["passed"],
        "iters": len(history),
        "history": history,
    }


def holdout_check(solution_src):
    return harness.run(solution_src, harness.HOLDOUT_TESTS, timeout=10)["failed"]
