"""The task bank: one shape for every task, a reference green on its held-out tests, every planted bug red."""

import ast
import hashlib
import re

import pytest

import harness
import harness.model.reading
from harness.tasks import DEFAULT, LEAP_YEAR, TASKS, Task, UnknownTask, task
from tests.helpers import first_fast

TUTORIAL_TESTS = '''\
import pytest


def test_hours_and_minutes():
    assert parse_duration("1h30m") == 5400


def test_seconds():
    assert parse_duration("45s") == 45


def test_all_units():
    assert parse_duration("2h5m10s") == 7510


def test_invalid():
    with pytest.raises(ValueError):
        parse_duration("ten minutes")
'''


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_six_tasks_from_easiest_to_hardest_with_leap_year_the_default():
    assert list(TASKS) == ["leap_year", "median", "to_roman", "parse_duration", "merge_intervals", "wrap_text"]
    assert DEFAULT is LEAP_YEAR and harness.SPEC == LEAP_YEAR.spec and harness.HOLDOUT_TESTS == LEAP_YEAR.holdout_tests
    assert [t.difficulty for t in TASKS.values()] == sorted(t.difficulty for t in TASKS.values())


@pytest.mark.parametrize("item", TASKS.values(), ids=TASKS.keys())
def test_every_task_has_the_same_shape(item):
    assert isinstance(item, Task) and item.name and item.title
    assert f"`{item.function}(" in item.spec and f"def {item.function}(" in item.reference
    assert len(item.buggy) >= 5 and all(f"def {item.function}(" in bug for bug in item.buggy.values())
    defined = {node.name for node in ast.parse(item.holdout_tests).body if isinstance(node, ast.FunctionDef)}
    assert "def test_" in item.holdout_tests and item.function not in defined  # the solution's own, not a copy
    script = item.script
    assert "def test_" in script.tests and script.fixes and script.fixes[-1].code == item.reference
    assert all(fix.says.endswith(".") and fix.tests for fix in script.fixes)
    assert item.example.startswith(f"{item.function}(") and item.aliases
    assert all(re.compile(alias) for alias in item.aliases)


def test_leap_year_is_byte_for_byte_what_the_five_steps_were_built_on():
    assert [sha(LEAP_YEAR.spec), sha(LEAP_YEAR.reference), sha(LEAP_YEAR.holdout_tests)] == [
        "735d77a645546c7e", "8df2b36a6f6249cf", "559b3ebdd1eb4ca4"]  # held-out: with its drawn cases
    assert [sha(LEAP_YEAR.buggy[n]) for n in ("forgets_centuries", "forgets_400_rule", "no_validation")] == [
        "02074d0b34b7509a", "99f59f1417575e05", "771ffd9fdf2176a6"]
    script = LEAP_YEAR.script
    assert [sha(script.tests), sha(script.first_attempt), sha(script.gamed_fix)] == [
        "4da2e3efcd96015d", "02074d0b34b7509a", "a6726cef120afc42"]


def test_a_task_is_found_by_its_name_or_its_function():
    assert task("parse_duration") is task("parse-duration") is task("Parse_Duration") is TASKS["parse_duration"]
    assert task("is_leap_year") is LEAP_YEAR and task(None) is task("") is DEFAULT
    with pytest.raises(UnknownTask) as info:
        task("fizzbuzz")
    assert isinstance(info.value, harness.LabError)
    assert str(info.value) == (
        "There is no task 'fizzbuzz': use one of leap_year, median, to_roman, parse_duration, merge_intervals, "
        "wrap_text."
    )


def test_the_tutorials_four_parse_duration_tests_pass_on_the_reference():
    result = harness.run(TASKS["parse_duration"].reference, TUTORIAL_TESTS)
    assert (result["passed"], result["failed"], result["error"]) == (4, [], None)


@pytest.mark.slow
@pytest.mark.parametrize("item", first_fast(TASKS.values()), ids=TASKS.keys())  # a run per planted bug
def test_the_reference_passes_its_held_out_and_model_tests_and_every_planted_bug_fails(item):
    for tests in (item.holdout_tests, item.script.tests):
        result = harness.run(item.reference, tests)
        assert result["error"] is None and result["failed"] == [] and result["passed"] >= 5, result
    for name, bug in item.buggy.items():
        assert bug != item.reference
        result = harness.run(bug, item.holdout_tests)
        assert result["error"] is None and result["failed"], f"{item.name}: {name} passes the held-out tests"


PROBE = '''\
import gc
import sys


def {function}(backwards, *args, **kwargs):
    """Look through this process's memory for a held-out test's name (sent backwards): True if it is found."""
    needle = backwards[::-1]
    seen = []
    for obj in gc.get_objects():
        if isinstance(obj, dict):
            seen += [v for v in obj.values() if isinstance(v, str)]
        elif isinstance(obj, (list, tuple, set)):
            seen += [v for v in obj if isinstance(v, str)]
    for module in list(sys.modules.values()):
        seen += [v for v in vars(module).values() if isinstance(v, str)]
    return any(needle in text for text in seen)
'''


@pytest.mark.slow
@pytest.mark.parametrize("item", TASKS.values(), ids=TASKS.keys())
def test_held_out_expectations_never_enter_the_solutions_process(item):
    name = harness.model.reading.test_names(item.holdout_tests)[-1]
    tests = item.holdout_tests + (
        f"\n\ndef test_the_solution_sees_no_tests():\n    assert {item.function}({name[::-1]!r}) is False\n"
    )
    result = harness.run(PROBE.format(function=item.function), tests)
    assert result["error"] is None and "test_the_solution_sees_no_tests" not in result["failed"], result


def test_the_probe_finds_a_name_when_its_process_does_hold_it():
    solution = PROBE.format(function="is_leap_year") + "\nHELD = 'test_rejects_values_that_are_not_integers'\n"
    backwards = "test_rejects_values_that_are_not_integers"[::-1]
    result = harness.run(solution, f"def test_probe():\n    assert is_leap_year({backwards!r}) is False\n")
    assert result["failed"] == ["test_probe"]
