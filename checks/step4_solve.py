"""Step 4 checks: `solve(spec, ask, max_iters)` drives the write -> run -> repair loop until the tests pass.

Scripted models drive each case, so the verdict never depends on how the learner words a prompt. The rule that
tells a tests request from a solution request is the order the contract fixes: solve asks for the tests once,
first; every later call to ask is for a solution (attempt 1, 2, ...).
"""

import functools

import harness
from checks.define import CheckFailed, check, cut, fail, fail_text, need, need_type, pytest_view
from checks.scripted import ScriptedAsk, run_tests
from checks.scripts import NO_TESTS, reply_with, trim
from harness.model.offline import reply as offline_reply

STEP = 4


def solutions(agent) -> tuple[str, str, str, str]:
    """This grading's wording of the reference and of the three planted bugs step 4 uses.

    The century bug and the missing 400 rule fail the century test; the missing validation fails the invalid-year test.
    """
    drawn = agent.script.solutions
    return drawn["reference"], drawn["forgets_centuries"], drawn["forgets_400_rule"], drawn["no_validation"]


def solved(agent, solutions, tests=None, runs=None, **options):
    """solve(SPEC) with a model whose first reply is `tests` and whose next replies are `solutions`, in order.

    `tests` defaults to this grading's step 4 tests; `runs`, if given, answers the agent's calls to harness.run.
    """
    tests = agent.script.solve_tests.source if tests is None else tests
    replies = [reply_with(tests)] + [reply_with(code, style=n % 2) for n, code in enumerate(solutions)]
    model = ScriptedAsk(replies, runs=runs)
    out = agent.call("solve", harness.SPEC, model, **options)  # a dict with every key: the engine sees to that
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
    _, century_bug, no_400_rule, no_validation = solutions(agent)
    out, _ = solved(agent, [century_bug, no_validation, no_400_rule], max_iters=3)
    tests = agent.script.solve_tests.source
    need_type(out["tests"], str, "tests", "tests must be the code of the tests (a str)")
    if trim(out["tests"]) != trim(tests):
        # Asked again, the model sends the next reply: a solution, not tests. So the tests came back wrong.
        fail_text(trim(tests), out["tests"], _TESTS_ONCE)


@check(follows=("writes_the_tests_once",))
def stops_at_the_first_passing_attempt(agent):
    """stops as soon as an attempt passes, and says it passed"""
    reference, century_bug, _, no_validation = solutions(agent)
    out, model = solved(agent, [century_bug, reference, no_validation])
    hint = "stop (break) as soon as a run passes" if attempts_asked(model) > 2 else _PASS_RULE
    century = agent.script.solve_tests.century
    expect_attempts(model, 2, f"attempt 1 fails {century}, attempt 2 passes", hint)
    expect_passed(out, True, "attempt 2 passes every test")


@check(follows=("writes_the_tests_once",))
def feeds_the_failing_tests_back(agent):
    """names the tests that failed in an attempt in the prompt for the next one"""
    reference, century_bug, _, no_validation = solutions(agent)
    _, model = solved(agent, [century_bug, no_validation, reference])
    prompts = [prompt if isinstance(prompt, str) else repr(prompt) for _, prompt in model.calls]
    names = agent.script.solve_tests
    for attempt, failed in ((2, names.century), (3, names.invalid)):
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


@check(follows=("writes_the_tests_once",))
def gives_up_after_max_iters(agent):
    """makes at most max_iters attempts, then returns passed=False"""
    reference, century_bug, no_400_rule, no_validation = solutions(agent)
    out, model = solved(agent, [century_bug, no_validation, no_400_rule, reference], max_iters=3)
    expect_attempts(model, 3, "max_iters=3 and every attempt fails", "make at most max_iters attempts: for _ in range(max_iters)")
    expect_passed(out, False, "no attempt passed")


@check(follows=("writes_the_tests_once", "gives_up_after_max_iters"))
def returns_the_last_attempt(agent):
    """returns the last attempt's code"""
    _, century_bug, no_400_rule, no_validation = solutions(agent)
    out, _ = solved(agent, [century_bug, no_validation, no_400_rule], max_iters=3)
    need_type(out["code"], str, "code", "code must be the code of the last attempt (a str)")
    if trim(out["code"]) != trim(no_400_rule):
        hint = "code is the solution of the last attempt"
        if trim(out["code"]) == trim(century_bug):
            hint = "you returned the first attempt: keep the latest code as the loop goes on"
        fail_text(trim(no_400_rule), out["code"], hint)


@check(follows=("writes_the_tests_once", "gives_up_after_max_iters"))
def counts_and_records_each_attempt(agent):
    """returns iters and a history entry (code and run result) for each attempt"""
    _, century_bug, no_400_rule, no_validation = solutions(agent)
    attempts = (century_bug, no_validation, no_400_rule)
    out, _ = solved(agent, list(attempts), max_iters=3)
    served = agent.served
    need(out["iters"] == 3 and type(out["iters"]) is int,
         f"expected iters=3 (three attempts, all failing), got {cut(out['iters'])}",
         "iters is the number of solutions written")
    history = out["history"]
    need_type(history, list, "history", "history is a list with one entry per attempt")
    need(len(history) == 3, f"expected 3 history entries (one per attempt), got {len(history)}", _HISTORY)
    for number, (entry, code) in enumerate(zip(history, attempts), start=1):
        need(
            isinstance(entry, dict) and "code" in entry and "result" in entry,
            f"expected history entry {number} to be a dict with code and result, got {cut(entry)}",
            _HISTORY,
        )
        if not isinstance(entry["code"], str) or trim(entry["code"]) != trim(code):
            fail(f"history entry {number}'s code to be attempt {number}'s code", entry["code"], _HISTORY)
        actual = run_tests(code, agent.script.solve_tests.source)
        result = entry["result"]
        need(
            isinstance(result, dict) and result.get("failed") == actual["failed"],
            f"expected history entry {number}'s result to be its run (failed={actual['failed']}), got {cut(result)}",
            "store the dict harness.run returned for that attempt",
        )
        need(
            any(trim(run["solution"]) == trim(code) and run["result"] == result for run in served),
            f"expected history entry {number}'s result to be what harness.run returned for attempt {number}, but "
            "no run of that code returned it",
            "run each attempt with harness.run(code, tests) and store the dict it returns, as it is",
        )


@check(follows=("writes_the_tests_once",))
def a_run_of_zero_tests_is_not_a_pass(agent):
    """never counts a run of zero tests as a pass"""
    out, _ = solved(agent, [solutions(agent)[0]], tests=NO_TESTS, runs=_ran_nothing, max_iters=2)
    expect_passed(out, False, "every run reports 0 passed, 0 failed: no test ran")


@check(follows=("writes_the_tests_once",))
def a_run_that_errors_is_not_a_pass(agent):
    """never counts a run that stops with an error as a pass"""
    out, _ = solved(agent, [solutions(agent)[0]], runs=_stopped_early, max_iters=2)
    expect_passed(out, False, "every run reports an error, even with no failed test")


@check(follows=("writes_the_tests_once", "stops_at_the_first_passing_attempt", "feeds_the_failing_tests_back",
                "gives_up_after_max_iters"))
def solves_a_task_it_was_never_shown(agent):
    """solves a task other than leap year with the lab's model, as it solves leap year"""
    task = agent.script.unseen
    model = ScriptedAsk(functools.partial(offline_reply, persona="honest"))
    out = agent.call("solve", task.spec, model)
    prompts = [prompt for _, prompt in model.calls if isinstance(prompt, str)]
    about = f"{task.title[:1].lower()}{task.title[1:]} (`{task.function}`), a task the lab never showed your agent"
    if any(task.spec.strip() not in prompt for prompt in prompts):
        raise CheckFailed(
            f"expected every prompt to hold the spec of {about}, but a prompt did not",
            "build each prompt from the `spec` argument; nothing in solve may be about leap year",
        )
    code = out.get("code")
    held = run_tests(code, task.holdout_tests) if isinstance(code, str) else None
    need(
        out.get("passed") is True and held is not None and held["error"] is None and not held["failed"],
        f"expected solve to solve {about}, with the lab's offline model answering; it returned passed="
        f"{cut(out.get('passed'))} after {cut(out.get('iters'))} attempt(s)"
        + (f", and its code fails held-out tests: {', '.join(held['failed']) or held['error']}" if held else ""),
        "solve must work for any spec: use the spec it is given, and nothing that only leap year has "
        "(harness.SPEC, harness.HOLDOUT_TESTS, is_leap_year)",
    )


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


test_check, pytest_generate_tests = pytest_view(STEP, __name__)
