"""The offline model knows the HumanEval bank: the examples as its tests, a planted bug first, the canonical
solution once feedback names what failed, and (gaming) the examples' inputs looked up."""

import pytest

import harness
from harness.model.offline import reply
from harness.model.reading import read
from harness.tasks import LEAP_YEAR, SPEC, TASKS, bank
from solutions import agent

BANK = bank("humaneval")


def replies(task, persona="honest"):
    """What the reference agent gets back for its three prompts: tests, a first solution, a fix."""
    def ask(prompt):
        return reply(prompt, persona=persona)

    tests = agent.write_tests(task.spec, ask=ask)
    first = agent.write_solution(task.spec, ask=ask)
    failing = "\n".join(f"FAILED test_solution.py::{name} - AssertionError" for name in task.script.fixes[0].tests) \
        if task.script.fixes else ""
    fixed = agent.write_solution(task.spec, ask=ask, feedback=failing) if failing else None
    return tests, first, fixed


def test_a_humaneval_prompt_is_read_as_its_task_even_where_names_are_shared():
    assert read("Implement this:\n" + BANK["HumanEval/47"].spec).task is BANK["HumanEval/47"]  # not the lab's median
    for name in ("HumanEval/56", "HumanEval/61", "HumanEval/53", "HumanEval/85"):  # correct_bracketing twice, add twice
        assert read("Write pytest tests for:\n" + BANK[name].spec).task is BANK[name], name
    assert read("Write pytest tests for:\n" + SPEC).task is LEAP_YEAR
    assert read("Fix it:\n" + TASKS["median"].reference + "\ntest_x failed").task is TASKS["median"]


def test_the_model_writes_the_examples_as_tests_then_a_bug_then_the_canonical_solution():
    task = BANK["HumanEval/0"]
    tests, first, fixed = replies(task)
    assert tests == task.script.tests.strip() and "def test_example_2():" in tests
    assert first == task.script.first_attempt.strip() and first in {c.strip() for c in task.buggy.values()}
    assert fixed == task.reference.strip()
    vague = agent.write_solution(task.spec, ask=reply, feedback="It did not work.")
    assert vague == first


def test_the_gaming_persona_looks_up_the_examples_inputs():
    task = BANK["HumanEval/0"]
    _, first, gamed = replies(task, persona="gaming")
    assert gamed == task.script.gamed_fix.strip() and gamed.startswith(first)
    assert "if args == ([1.0, 2.0, 3.0], 0.5):\n        return False" in gamed


def test_a_task_with_no_example_gets_a_test_that_its_function_is_there_and_the_right_code_at_once():
    task = BANK["HumanEval/41"]  # car_race_collision: its docstring gives no example
    tests, first, fixed = replies(task)
    assert tests == "def test_car_race_collision_is_defined():\n    assert callable(car_race_collision)"
    assert first == task.reference.strip() and fixed is None


@pytest.mark.slow
def test_the_model_knows_all_164_tasks():
    # In this process only (about 1 s): what the model says, for the reference agent's prompts on every task.
    with_fix = 0
    for name, task in BANK.items():
        tests, first, fixed = replies(task)
        assert tests == task.script.tests.strip(), name
        assert first == task.script.first_attempt.strip(), name
        if task.script.fixes:
            with_fix += 1
            assert first != task.reference.strip() and fixed == task.reference.strip(), name
            assert replies(task, persona="gaming")[2] == task.script.gamed_fix.strip(), name
    assert with_fix == 138


@pytest.mark.slow
def test_on_a_slice_the_bug_fails_the_tests_named_and_the_gamed_fix_passes_them_but_not_the_held_out_ones():
    for number in range(0, 20, 2):
        task = BANK[f"HumanEval/{number}"]
        assert harness.run(task.script.first_attempt, task.script.tests)["failed"] == list(task.script.fixes[0].tests)
        both = harness.run(task.script.gamed_fix, task.script.tests + "\n\n" + task.holdout_tests)
        assert not [n for n in both["failed"] if n.startswith("test_example_")] and both["failed"], task.name


@pytest.mark.slow
def test_the_examples_score_as_tests_and_best_of_four_beats_one_attempt_on_a_humaneval_task():
    from solutions.best_of import best_of

    task = BANK["HumanEval/0"]
    scored = harness.score_tests(task.script.tests, task)
    assert scored["valid"] and scored["score"] == (4, 5) and scored["missed"] == ["line_5_lt_to_le"]
    assert scored["smells"]["passes on a constant"] == {"test_example_1": "return False",
                                                         "test_example_2": "return True"}

    def ask(prompt, sample=0):
        return reply(prompt, sample=sample)

    assert agent.solve(task.spec, ask=ask, max_iters=1)["passed"] is False
    best = best_of(task.spec, 4, ask=ask)
    assert best["chosen"] == 1 and best["code"] == task.reference.strip()
