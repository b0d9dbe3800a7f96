"""The reference agent: one way to write the five steps, as a teacher would hand it out."""

import re

import harness

# A fence line is ``` plus an optional tag such as "python"; the code runs to the next ```.
_FENCE = re.compile(r"```[ \t]*([\w+.-]*)[ \t]*\r?\n(.*?)```", re.DOTALL)


def extract_code(reply):
    r"""Step 1. Return the code in a model's reply.

    If the reply has a ``` fence (tagged `python`, or bare), return the code
    of the first fenced block: no fence lines, no tag, indentation kept.
    With no fence, the reply is bare code: return all of it, stripped.

    >>> extract_code("Here you go:\n```python\nx = 1\n```\nEnjoy!")
    'x = 1'
    >>> extract_code("  x = 1\n")
    'x = 1'
    """
    match = _FENCE.search(reply)
    if match is None:
        return reply.strip()
    # Blank lines just inside the fences are noise; indentation of the first line is not.
    return match.group(2).strip("\r\n").rstrip()


def write_tests(spec, ask=harness.ask):
    """Step 2. Ask the model for tests of `spec` and return their code.

    Ask once, through the `ask` you are given (prompt in, reply out). The
    prompt holds `spec` and asks for pytest test functions named `test_*`
    that call the function directly (no import). Return the code of the
    reply (use `extract_code`).

    >>> code = write_tests(harness.SPEC)
    >>> "def test_" in code
    True
    """
    prompt = (
        "You are writing tests before any code exists.\n\n"
        f"Specification:\n{spec}\n"
        "Write pytest test functions named test_* that check this specification: "
        "typical cases, edge cases and invalid input. Call the function directly; "
        "do not import it. Reply with one ```python code block."
    )
    return extract_code(ask(prompt))


def write_solution(spec, ask=harness.ask, feedback=""):
    """Step 3. Ask the model to implement `spec` and return the code.

    Ask once, through the `ask` you are given; the prompt holds `spec`. If
    `feedback` (what went wrong last time) is not empty, add it too; if it
    is empty, leave it out, with any words that introduce it. Return the
    code of the reply (use `extract_code`).

    >>> code = write_solution(harness.SPEC)
    >>> "def is_leap_year" in code
    True
    """
    prompt = f"Implement this specification in Python.\n\nSpecification:\n{spec}\n"
    if feedback:
        prompt += f"\nYour last attempt failed. Here is what went wrong:\n{feedback}\nFix it.\n"
    prompt += "Reply with the complete function in one ```python code block."
    return extract_code(ask(prompt))


def solve(spec, ask=harness.ask, max_iters=4):
    """Step 4. Loop write -> run -> repair until the tests pass.

    Write the tests once, first. Then, up to `max_iters` times: write a
    solution (with feedback on the last failure, if any), run it with
    `harness.run(code, tests)`, and stop as soon as it passes. A run passes
    only with no error, no failed test, and at least one passed test. The
    feedback must name the failing tests. Pass `ask` on to steps 2 and 3.

    Return a dict:
        code     the last solution written
        tests    the tests the model wrote
        passed   True if the last run passed
        iters    how many solutions were written
        history  one entry per attempt: {"code": ..., "result": <run result>}

    >>> out = solve(harness.SPEC)
    >>> out["passed"], out["iters"]
    (True, 2)
    """
    tests = write_tests(spec, ask)
    ask_anew = _asks_anew(ask)
    code, passed, history, feedback = "", False, [], ""
    for _ in range(max_iters):
        code = write_solution(spec, ask_anew, feedback)
        result = harness.run(code, tests)
        history.append({"code": code, "result": result})
        # An error or an empty run proves nothing, so it never counts as a pass.
        passed = result["error"] is None and not result["failed"] and result["passed"] > 0
        if passed:
            break
        feedback = _describe_failure(result)
    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}


_FEEDBACK_LIMIT = 3000  # characters of a run's output sent back: its end, where the last failure is


def _describe_failure(result):
    """Say what went wrong in a run, in words a model can act on."""
    lines = []
    if result["error"]:
        lines.append(f"The run did not complete: {result['error']}")
    if result["failed"]:
        lines.append("These tests failed: " + ", ".join(result["failed"]))
    if result["output"]:
        lines.append("Details:\n" + result["output"][-_FEEDBACK_LIMIT:])
    return "\n".join(lines)


def _asks_anew(ask):
    """`ask`, but a prompt sent before asks for the next sample (1, 2, ...): a live model answers anew."""
    sent = {}

    def ask_anew(prompt):
        sent[prompt] = sent.get(prompt, 0) + 1
        return ask(prompt) if sent[prompt] == 1 else ask(prompt, sample=sent[prompt] - 1)

    return ask_anew


def holdout_check(solution_src):
    """Step 5. Run the held-out tests on a solution; return the names that fail.

    Run `harness.HOLDOUT_TESTS` (never shown to the model) on `solution_src`
    with `harness.run`, and return the run's `failed` list as it is (a run
    that could not complete names every test). An empty list means the
    solution generalises.

    >>> holdout_check(harness.tasks.LEAP_YEAR.reference)
    []
    """
    return harness.run(solution_src, harness.HOLDOUT_TESTS)["failed"]
