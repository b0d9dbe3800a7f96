"""Step 2 checks: `write_tests(spec, ask)` asks the model for tests of the spec and returns their code."""

import functools
import re

from checks.scripted import ScriptedAsk, run_tests
from checks.define import (
    CheckFailed, asked_once, check, cut, need, need_extracted, need_type, prompt_sent, pytest_view,
)
from checks.scripts import reply_with

STEP = 2
_ASKS_FOR_TESTS = re.compile(r"test_|\btest functions?\b|\bpytest\b", re.IGNORECASE)


def scripted_call(agent):
    """write_tests on another spec, with a model that replies with tests of it: (returned code, the model)."""
    other = agent.script.other
    model = ScriptedAsk([reply_with(other.tests)])
    got = agent.call("write_tests", other.spec, model)
    return got, model


def offline_tests(agent) -> str:
    """The tests write_tests returns for the task's spec (leap year, or --task) when the lab's offline model answers."""
    from harness.model.offline import reply

    got = agent.call("write_tests", agent.script.task.spec, ScriptedAsk(functools.partial(reply, persona="honest")))
    need_type(got, str, "write_tests", "return the code of the tests as a str")
    return got


@check
def calls_the_given_ask_once(agent):
    """asks through the `ask` it is given, once"""
    _, model = scripted_call(agent)
    asked_once(model, "write_tests")


@check
def puts_the_spec_in_the_prompt(agent):
    """puts the spec it is given in the prompt (the checks give it a spec other than leap year)"""
    prompt = prompt_sent(scripted_call(agent)[1], "write_tests")
    need(
        agent.script.other.spec.strip() in prompt,
        f"expected the spec in the prompt, got the prompt {cut(prompt)}",
        "put the `spec` argument itself in the prompt (not harness.SPEC): the model only knows what you send",
    )


@check
def asks_for_test_functions(agent):
    """asks for pytest test functions named test_*"""
    prompt = prompt_sent(scripted_call(agent)[1], "write_tests").replace(agent.script.other.spec.strip(), "")
    need(
        bool(_ASKS_FOR_TESTS.search(prompt)),
        f"expected the prompt to ask for test functions (test_*, pytest), got {cut(prompt)}",
        "say what you want back: pytest test functions named test_* that call the function directly",
    )


@check
def returns_the_code_of_the_reply(agent):
    """returns the code from the reply (through extract_code), not the whole reply"""
    got, _ = scripted_call(agent)
    need_extracted(got, agent.script.other.tests, "write_tests", "tests")


@check(follows=("calls_the_given_ask_once", "returns_the_code_of_the_reply"))
def offline_tests_pass_on_a_correct_solution(agent):
    """with the offline model, its tests pass on a correct solution"""
    tests = offline_tests(agent)
    result = run_tests(agent.script.task.reference, tests)
    if result["error"] is None and not result["failed"] and result["passed"] > 0:
        return
    if result["passed"] + len(result["failed"]) == 0 and result["error"] is None:
        message = f"expected tests, but running what came back found none: {cut(tests)}"
    elif result["error"]:
        message = f"expected tests that run, but they did not: {result['error']}; the code was {cut(tests)}"
    else:
        message = f"expected every test to pass on a correct solution, but these failed: {', '.join(result['failed'])}"
    raise CheckFailed(
        message,
        "did the offline model understand? ask plainly for pytest tests of the spec (run `python lab/try_it.py`)",
    )


@check(follows=("calls_the_given_ask_once", "returns_the_code_of_the_reply", "offline_tests_pass_on_a_correct_solution"))
def offline_tests_catch_the_known_bugs(agent):
    """with the offline model, its tests fail every known-buggy solution they can catch"""
    task = agent.script.task
    tests = offline_tests(agent)
    reference = run_tests(task.reference, tests)
    need(
        reference["error"] is None and not reference["failed"] and reference["passed"] > 0,
        "not checked: the tests must first pass on a correct solution (see the check above)",
    )
    # Missed: a bug these tests pass that the offline model's own tests catch (all of leap year's; on other tasks,
    # not every one). The model's tests run only on the bugs these missed: none, for tests that catch them all.
    missed = [name for name, buggy in task.buggy.items()
              if not _fails(run_tests(buggy, tests)) and _fails(run_tests(buggy, task.script.tests))]
    need(
        not missed,
        f"expected the tests to fail on every known-buggy solution, but they passed: {', '.join(missed)}",
        "ask for tests that cover the whole spec: typical years, centuries, every 400th year and invalid input"
        if task.name == "leap_year" else "ask for tests that cover the whole spec: every rule and every invalid input",
    )


def _fails(result: dict) -> bool:
    return result["error"] is not None or bool(result["failed"])


test_check, pytest_generate_tests = pytest_view(STEP, __name__)
