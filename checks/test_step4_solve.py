"""Step 4 checks: `solve(spec, ask, max_iters)` drives the write -> run -> repair loop until the tests pass.

Scripted models drive each case, so the verdict never depends on how the learner words a prompt. The rule that
tells a tests request from a solution request is the order the contract fixes: solve asks for the tests once,
first; every later call to ask is for a solution (attempt 1, 2, ...).
"""

import harness
from checks.scripted import ScriptedAsk, run_tests
from checks.define import CheckFailed, check, cut, fail, need, need_type, pytest_view
from checks.scripts import NO_TESTS, SOLVE_TESTS, reply_with, trim

STEP = 4
REFERENCE = harness.tasks.LEAP_YEAR.reference
CENTURY_BUG = harness.tasks.LEAP_YEAR.buggy["forgets_centuries"]  # fails test_century_rule
NO_400_RULE = harness.tasks.LEAP_YEAR.buggy["forgets_400_rule"]  # fails test_century_rule
NO_VALIDATION = harness.tasks.LEAP_YEAR.buggy["no_validation"]  # fails test_zero_is_rejected
KEYS = ("code", "tests", "passed", "iters", "history")


def solved(agent, solutions, tests=SOLVE_TESTS, runs=None, **options):
    """solve(SPEC) with a model whose first reply is `tests` and whose next replies are `solutions`, in order.

    `runs`, if given, answers the agent's calls to harness.run instead of the sandbox.
    """
    replies = [reply_with(tests)] + [reply_with(code, style=n % 2) for n, code in enumerate(solutions)]
    model = ScriptedAsk(replies, runs=runs)
    out = agent.call("solve", harness.SPEC, model, **options)
    need_type(out, dict, "solve", "return a dict with the keys code, tests, passed, iters and history")
    missing = [key for key in KEYS if key not in out]
    need(
        not missing,
        f"expected solve's dict to have {', '.join(KEYS)}; it has no {', '.join(missing)}",
        "return {'code': ..., 'tests': ..., 'passed': ..., 'iters': ..., 'history': ...}",
    )
    return out, model


def attempts_asked(model) -> int:
    """How many solutions solve asked for: every call to ask after the first (which asks for the tests)."""
    return max(len(model.calls) - 1, 0)


def expect_passed(out, expected: bool, why: str) -> None:
    """`passed` is a bool, equal to `expected`; a claimed pass must hold when the grader runs the code itself."""
    need_type(out["passed"], bool, "passed", "passed must be True or False, not a count or a run result")
    if out["passed"] is not expected:
        fail(f"passed={expected} ({why})", out["passed"], _PASS_RULE)
    if expected and isinstance(out["code"], str) and isinstance(out["tests"], str):
        result = run_tests(out["code"], out["tests"])
        need(
            result["error"] is None and not result["failed"] and result["passed"] > 0,
            f"solve returned passed=True, but its code fails its tests when the grader runs them: {_summary(result)}",
            "passed must come from harness.run's result for the last attempt",
        )


def expect_attempts(model, expected: int, why: str, hint: str) -> None:
    made = attempts_asked(model)
    if made != expected:
        raise CheckFailed(f"expected {expected} attempt(s) ({why}), but solve asked for {made} solution(s)", hint)


@check
def writes_the_tests_once(agent):
    """asks for the tests once, before the first solution, and returns them"""
    out, model = solved(agent, [CENTURY_BUG, NO_VALIDATION, REFERENCE])
    need_type(out["tests"], str, "tests", "tests must be the code of the tests (a str)")
    if trim(out["tests"]) != trim(SOLVE_TESTS):
        fail(f"tests to be the tests the model wrote ({cut(trim(SOLVE_TESTS), 60)})", out["tests"], _TESTS_ONCE)
    need(
        len(model.calls) == 4,
        f"expected 4 calls to ask (the tests once, then 3 attempts until one passed), got {len(model.calls)}",
        _TESTS_ONCE,
    )


@check
def stops_at_the_first_passing_attempt(agent):
    """stops as soon as an attempt passes, and says it passed"""
    out, model = solved(agent, [CENTURY_BUG, REFERENCE, NO_VALIDATION])
    hint = "stop (break) as soon as a run passes" if attempts_asked(model) > 2 else _PASS_RULE
    expect_attempts(model, 2, "attempt 1 fails test_century_rule, attempt 2 passes", hint)
    expect_passed(out, True, "attempt 2 passes every test")


@check
def feeds_the_failing_tests_back(agent):
    """names the tests that failed in an attempt in the prompt for the next one"""
    _, model = solved(agent, [CENTURY_BUG, NO_VALIDATION, REFERENCE])
    prompts = [prompt if isinstance(prompt, str) else repr(prompt) for _, prompt in model.calls]
    for attempt, failed in ((2, "test_century_rule"), (3, "test_zero_is_rejected")):
        need(
            len(prompts) > attempt,
            f"expected an attempt {attempt} after attempt {attempt - 1} failed {failed}, but solve stopped",
            _PASS_RULE,
        )
        need(
            failed in prompts[attempt],
            f"expected the prompt of attempt {attempt} to name {failed} (it failed in attempt {attempt - 1}), "
            f"got a prompt ending {cut(prompts[attempt][-160:])}",
            "build the feedback from the run's result['failed'] and pass it to write_solution",
        )


@check
def gives_up_after_max_iters(agent):
    """makes at most max_iters attempts, then returns passed=False"""
    out, model = solved(agent, [CENTURY_BUG, NO_VALIDATION, NO_400_RULE, REFERENCE], max_iters=3)
    expect_attempts(model, 3, "max_iters=3 and every attempt fails", "make at most max_iters attempts: for _ in range(max_iters)")
    expect_passed(out, False, "no attempt passed")


@check
def returns_the_last_attempt(agent):
    """returns the last attempt's code"""
    out, _ = solved(agent, [CENTURY_BUG, NO_VALIDATION, NO_400_RULE], max_iters=3)
    need_type(out["code"], str, "code", "code must be the code of the last attempt (a str)")
    if trim(out["code"]) != trim(NO_400_RULE):
        hint = "code is the solution of the last attempt"
        if trim(out["code"]) == trim(CENTURY_BUG):
            hint = "you returned the first attempt: keep the latest code as the loop goes on"
        fail(f"the code of attempt 3 ({cut(trim(NO_400_RULE), 60)})", out["code"], hint)


@check
def counts_and_records_each_attempt(agent):
    """returns iters and a history entry (code and run result) for each attempt"""
    out, _ = solved(agent, [CENTURY_BUG, REFERENCE])
    need(out["iters"] == 2 and type(out["iters"]) is int, f"expected iters=2 (two attempts), got {cut(out['iters'])}",
         "iters is the number of solutions written")
    history = out["history"]
    need_type(history, list, "history", "history is a list with one entry per attempt")
    need(len(history) == 2, f"expected 2 history entries (one per attempt), got {len(history)}", _HISTORY)
    for number, (entry, code) in enumerate(zip(history, (CENTURY_BUG, REFERENCE)), start=1):
        need(
            isinstance(entry, dict) and "code" in entry and "result" in entry,
            f"expected history entry {number} to be a dict with code and result, got {cut(entry)}",
            _HISTORY,
        )
        if not isinstance(entry["code"], str) or trim(entry["code"]) != trim(code):
            fail(f"history entry {number}'s code to be attempt {number}'s code", entry["code"], _HISTORY)
        actual = run_tests(code, SOLVE_TESTS)
        result = entry["result"]
        need(
            isinstance(result, dict) and result.get("failed") == actual["failed"],
            f"expected history entry {number}'s result to be its run (failed={actual['failed']}), got {cut(result)}",
            "store the dict harness.run returned for that attempt",
        )


@check
def a_run_of_zero_tests_is_not_a_pass(agent):
    """never counts a run of zero tests as a pass"""
    out, _ = solved(agent, [REFERENCE], tests=NO_TESTS, runs=_ran_nothing, max_iters=2)
    expect_passed(out, False, "every run reports 0 passed, 0 failed: no test ran")


@check
def a_run_that_errors_is_not_a_pass(agent):
    """never counts a run that stops with an error as a pass"""
    out, _ = solved(agent, [REFERENCE], runs=_stopped_early, max_iters=2)
    expect_passed(out, False, "every run reports an error, even with no failed test")


_PASS_RULE = "a run passes only with no error, no failed test, and at least one passed test"
_TESTS_ONCE = "write the tests once, before the loop; each attempt then asks only for a solution"
_HISTORY = "append {'code': code, 'result': result} to history after each run"



# Two run results the sandbox rarely gives, served to the agent's harness.run in place of the sandbox's.
def _ran_nothing(solution: str, tests: str) -> dict:
    return {"passed": 0, "failed": [], "total": 0, "error": None, "output": ""}


def _stopped_early(solution: str, tests: str) -> dict:
    result = run_tests(solution, tests)
    return dict(result, error="crash: the test process stopped before reporting all results")


def _summary(result: dict) -> str:
    if result["error"]:
        return result["error"]
    if result["failed"]:
        return "failed " + ", ".join(result["failed"])
    return f"{result['passed']} passed"


test_check = pytest_view(STEP, __name__)
