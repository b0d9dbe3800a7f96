"""Correct, written differently: the loop lives in a small class; prompts built from a template."""

import re

import harness

FENCE = re.compile(r"^```(?:python)?[ \t]*$\n?(.*?)^```", re.MULTILINE | re.DOTALL)
TESTS_PROMPT = "SPEC:\n{spec}\n\nTASK: write test functions (named test_*) for pytest. No imports of the function."
SOLUTION_PROMPT = "SPEC:\n{spec}\n\nTASK: implement it as a Python function."
FEEDBACK_PART = "\n\nPREVIOUS ATTEMPT FAILED:\n{feedback}"


def extract_code(reply):
    match = FENCE.search(reply)
    return match.group(1).strip("\n").rstrip() if match else reply.strip()


def write_tests(spec, ask=harness.ask):
    return extract_code(ask(TESTS_PROMPT.format(spec=spec)))


def write_solution(spec, ask=harness.ask, feedback=""):
    prompt = SOLUTION_PROMPT.format(spec=spec)
    if feedback:
        prompt += FEEDBACK_PART.format(feedback=feedback)
    return extract_code(ask(prompt))


class _Loop:
    def __init__(self, spec, ask, max_iters):
        self.spec, self.ask, self.max_iters = spec, ask, max_iters
        self.tests = write_tests(spec, ask)
        self.history = []

    @staticmethod
    def green(result):
        return result["error"] is None and len(result["failed"]) == 0 and result["passed"] > 0

    def feedback(self):
        if not self.history:
            return ""
        result = self.history[-1]["result"]
        return "\n".join(filter(None, [result["error"], "failed tests: " + ", ".join(result["failed"])]))

    def run(self):
        while len(self.history) < self.max_iters:
            code = write_solution(self.spec, self.ask, self.feedback())
            self.history.append({"code": code, "result": harness.run(code, self.tests)})
            if self.green(self.history[-1]["result"]):
                break
        last = self.history[-1]
        return {
            "code": last["code"],
            "tests": self.tests,
            "passed": bool(self.green(last["result"])),
            "iters": len(self.history),
            "history": self.history,
        }


def solve(spec, ask=harness.ask, max_iters=4):
    return _Loop(spec, ask, max_iters).run()


def holdout_check(solution_src):
    failed = harness.run(solution_src, harness.HOLDOUT_TESTS).get("failed", [])
    return sorted(failed, key=lambda name: harness.HOLDOUT_TESTS.index("def " + name))
