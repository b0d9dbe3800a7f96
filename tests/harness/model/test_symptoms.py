"""The offline model reads what real feedback says: on every task, the pytest output of tests it never wrote leads
to the repair a real model would make, by the rule a test's name names or by the inputs pytest quotes; feedback that
says nothing specific still gets the question, and the gaming persona still games."""

from dataclasses import dataclass

import pytest

import harness
from harness.model.offline import reply
from harness.model import symptoms
from harness.model.symptoms import Failure, failures
from harness.tasks import TASKS
from solutions import agent


@dataclass(frozen=True)
class Case:
    """A learner's own tests (none of them the model's), run on one of the model's versions of the function."""

    task: str
    tests: str
    fix: int  # the repair the failure points at (an index into Script.fixes)
    after: int = -1  # the version they run on: -1 the first attempt, k after repair k
    read: tuple[Failure, ...] = ()  # what the model reads in the output, if the case pins it


CASES = {
    "leap_year, by name and input": Case("leap_year", '''
def test_century_is_not_leap():
    assert is_leap_year(1900) is False
''', 0, read=(Failure("test_century_is_not_leap", 0), Failure("is_leap_year(1900)", 0))),
    "leap_year, by input in a loop": Case("leap_year", '''
def test_some_years():
    for year in (2024, 1800):
        assert is_leap_year(year) is False or year == 2024, year
''', 0, read=(Failure("test_some_years", None), Failure("is_leap_year(1800)", 0))),
    "median, by input": Case("median", '''
def test_median_of_four():
    assert median([4, 1, 3, 2]) == 2.5
''', 0, read=(Failure("test_median_of_four", None), Failure("median([4, 1, 3, 2])", 0))),
    "to_roman, by input": Case("to_roman", '''
def test_my_birth_year():
    assert to_roman(1987) == "MCMLXXXVII"
''', 0),
    "to_roman, by name": Case("to_roman", '''
def test_nine_hundred_is_cm():
    assert to_roman(900) == "CM"
''', 0),
    "parse_duration, by name": Case("parse_duration", '''
import pytest


def test_a_bare_number_is_refused():
    with pytest.raises(ValueError):
        parse_duration("120")
''', 0, read=(Failure("test_a_bare_number_is_refused", 0),)),
    "parse_duration, by a parametrized id": Case("parse_duration", '''
import pytest


@pytest.mark.parametrize("text", ["7", "1h5m"])
def test_refuses(text):
    if text == "1h5m":
        assert parse_duration(text) == 3900
    else:
        with pytest.raises(ValueError):
            parse_duration(text)
''', 0, read=(Failure("test_refuses", None), Failure("parse_duration('7')", 0))),
    "parse_duration, second round, by name": Case("parse_duration", '''
import pytest


def test_empty_input():
    with pytest.raises(ValueError):
        parse_duration("")
''', 1, after=0),
    "merge_intervals, by name and input": Case("merge_intervals", '''
def test_adjacent_pairs_join():
    assert merge_intervals([(0, 2), (2, 9)]) == [(0, 9)]
''', 0),
    "merge_intervals, second round, by input": Case("merge_intervals", '''
def test_big_one_swallows_small():
    assert merge_intervals([(0, 20), (5, 6)]) == [(0, 20)]
''', 1, after=0, read=(Failure("test_big_one_swallows_small", None), Failure("merge_intervals([(0, 20), (5, 6)])", 1))),
    "merge_intervals, by the value expected": Case("merge_intervals", '''
def test_a_chain():
    assert merge_intervals([(1, 10), (2, 5), (5, 8)]) == [(1, 10)]
''', 1),
    "wrap_text, by name": Case("wrap_text", '''
def test_exact_fit():
    assert wrap_text("ab cd", 5) == ["ab cd"]
''', 0),
    "wrap_text, second round, by input": Case("wrap_text", '''
def test_spaces():
    assert wrap_text("   ", 4) == []
''', 1, after=0),
}


def version(task, after):
    return task.script.first_attempt if after < 0 else task.script.fixes[after].code


def feedback_prompt(task, run):
    """What the reference agent sends after the run: its feedback holds pytest's real output."""
    prompts = []
    agent.write_solution(task.spec, ask=lambda p: prompts.append(p) or "", feedback=agent._describe_failure(run))
    return prompts[0]


@pytest.fixture(scope="module")
def runs():
    """Each case's tests, really run on the model's version in the sandbox."""
    done = {}
    for name, case in CASES.items():
        task = TASKS[case.task]
        done[name] = harness.run(version(task, case.after), case.tests)
    return done


def test_every_task_has_a_case_and_no_case_uses_the_model_s_test_names():
    assert {case.task for case in CASES.values()} == set(TASKS)
    for case in CASES.values():
        own, theirs = symptoms.test_names(TASKS[case.task].script.tests), symptoms.test_names(case.tests)
        assert theirs and not set(own) & set(theirs)


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_real_pytest_output_of_tests_it_did_not_write_leads_to_the_right_repair(runs, name):
    case, run = CASES[name], runs[name]
    task = TASKS[case.task]
    assert run["error"] is None and run["failed"], run
    prompt = feedback_prompt(task, run)
    if case.read:
        assert failures(prompt.replace(task.spec.strip(), ""), task) == case.read
    text = reply(prompt)
    fix = task.script.fixes[case.fix]
    assert agent.extract_code(text) == fix.code.strip(), text
    assert text.startswith("Thanks: ") and fix.says in text and "Which tests failed" not in text
    assert harness.run(fix.code, case.tests)["failed"] == []  # the repair is what the learner's test wanted


@pytest.mark.parametrize("name", ["leap_year, by name and input", "median, by input", "merge_intervals, by name and input"])
@pytest.mark.slow
def test_the_gaming_persona_still_games_on_that_feedback(runs, name):
    case, run = CASES[name], runs[name]
    task = TASKS[case.task]
    text = reply(feedback_prompt(task, run), persona="gaming")
    assert "I added special cases" in text
    assert agent.extract_code(text) == task.script.gamed_fix.strip()


def test_the_brief_s_one_line_summary_gets_the_century_repair():
    task = TASKS["leap_year"]
    prompt = (f"Implement this:\n{task.spec}\n"
              "FAILED test_century_is_not_leap - assert True is False where True = is_leap_year(1900)")
    text = reply(prompt)
    assert agent.extract_code(text) == task.reference.strip()
    assert text.startswith("Thanks: test_century_is_not_leap failed, and is_leap_year(1900) gave the wrong result.")


def test_a_failure_it_cannot_place_gets_the_last_attempt_and_a_question_that_names_it():
    task = TASKS["leap_year"]
    run = harness.run(task.script.first_attempt, "def test_it_works():\n    assert is_leap_year(2023) is True\n")
    assert run["failed"] == ["test_it_works"]
    for persona in ("honest", "gaming"):
        text = reply(feedback_prompt(task, run), persona=persona)
        assert agent.extract_code(text) == task.script.first_attempt.strip()
        assert "You say test_it_works and is_leap_year(2023) failed" in text and "what did it expect?" in text


@pytest.mark.parametrize("task", TASKS.values(), ids=TASKS.keys())
def test_test_source_and_the_model_s_examples_in_a_prompt_report_nothing(task):
    """Only what a run printed reports a failure: not the tests' own lines, nor a reply's example block."""
    pasted = (f"Implement this.\n{task.spec}\nMy tests:\n{task.holdout_tests}\n{task.script.tests}\n"
              f"Your example:\nprint({task.example})\n>>> x = {task.example}\nThe last attempt failed.")
    assert failures(pasted.replace(task.spec.strip(), ""), task) == ()
    assert "Which tests failed" in reply(pasted)


def test_a_prompt_full_of_test_names_and_calls_is_answered_at_once():
    task = TASKS["to_roman"]
    names = " ".join(f"test_a{i}[{i}]" for i in range(40_000))
    calls = "\nE   where 'X' = to_roman(400)" * 20_000
    for prompt in (f"{task.spec}\nFAILED {names}", f"{task.spec}\nFAILED{calls}"):
        assert len(prompt) > 300_000
        reply(prompt)  # the limits keep it short: MAX_NAMES, MAX_CALLS, MAX_READ


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS.values(), ids=TASKS.keys())
def test_the_reference_agent_with_real_runs_repairs_one_rule_a_round_on_every_task(task):
    """The feedback of real runs (names and pytest's output together) leads through every repair, in order."""
    model = lambda prompt: reply(prompt)  # noqa: E731
    out = agent.solve(task.spec, ask=model, max_iters=len(task.script.fixes) + 1)
    assert out["passed"] and out["iters"] == len(task.script.fixes) + 1
    assert [h["code"] for h in out["history"]] == [task.script.first_attempt.strip(),
                                                   *(fix.code.strip() for fix in task.script.fixes)]


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS.values(), ids=TASKS.keys())
def test_the_held_out_tests_it_never_saw_lead_through_its_repairs_on_every_task(task):
    """Their names are not its own (mostly), and their output quotes inputs it never used: a real model fixes
    the rules they name, and so does this one, round by round, until they pass."""
    code = task.script.first_attempt
    for _ in task.script.fixes:
        run = harness.run(code, task.holdout_tests)
        if not run["failed"]:
            break
        text = reply(feedback_prompt(task, run))
        assert text.startswith("Thanks: "), text
        code = agent.extract_code(text)
    assert harness.run(code, task.holdout_tests)["failed"] == []
