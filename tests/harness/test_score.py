"""score_tests grades a test suite by the planted bugs it catches and names its smells; matrix runs N x M."""

import pytest

import harness
from harness.score import no_assertion
from harness.tasks import LEAP_YEAR, TASKS
from tests.helpers import first_fast, leap_year_grid

# The bug score of the offline model's own tests, per task (caught, planted).
MODEL_SCORES = {"leap_year": (5, 5), "median": (5, 8), "to_roman": (6, 8), "parse_duration": (8, 13),
                "merge_intervals": (8, 10), "wrap_text": (9, 11)}


@pytest.mark.slow
@pytest.mark.parametrize("name", first_fast(TASKS))  # each runs the tests against every planted bug of a task
def test_the_offline_models_tests_get_their_score_on_every_task(name):
    task = TASKS[name]
    score = harness.score_tests(task.script.tests, task)
    assert score["valid"] and score["wrong"] == [] and score["error"] is None
    assert score["score"] == MODEL_SCORES[name]
    assert sorted(score["caught"] + score["missed"]) == sorted(task.buggy)
    assert all(score["by"][bug] for bug in score["caught"])
    assert score["smells"]["no assertion"] == [] and score["smells"]["flaky"] == []


@pytest.mark.slow  # 13 planted bugs; test_tasks.py has every planted bug fail the held-out tests in the fast lane
def test_the_held_out_tests_catch_every_planted_bug():
    assert harness.score_tests(TASKS["parse_duration"].holdout_tests, "parse_duration")["score"] == (13, 13)


@pytest.mark.slow
def test_wrong_tests_weak_tests_and_flaky_tests_are_named(monkeypatch):
    # 16 runs of the reference: the coin keeps one verdict in all of them (and then may catch a bug by chance) 1 time
    # in 32768; at the lab's 3, 1 in 4, which made this test fail now and then.
    monkeypatch.setattr(harness.score, "REPEATS", 16)
    tests = '''\
import random


def test_checks_nothing():
    is_leap_year(2024)


def test_a_coin():
    assert random.random() < 0.5


def test_wrong_about_1900():
    assert is_leap_year(1900) is True


def test_only_common_years():
    assert is_leap_year(2023) is False


def test_centuries():
    assert is_leap_year(2100) is False
    assert is_leap_year(2000) is True
'''
    score = harness.score_tests(tests, "leap_year")
    assert not score["valid"]
    assert "test_wrong_about_1900" in score["wrong"]
    assert score["smells"]["no assertion"] == ["test_checks_nothing"]
    assert score["smells"]["passes on a constant"]["test_only_common_years"] == "return False"
    assert "test_centuries" not in score["smells"]["passes on a constant"]
    assert score["smells"]["flaky"] == ["test_a_coin"]
    assert score["by"]["forgets_centuries"] == ["test_centuries"]  # a flaky test catches nothing
    assert "forgets_centuries" in score["caught"] and "no_validation" in score["missed"]


@pytest.mark.slow
def test_a_coin_toss_is_flaky(monkeypatch):
    monkeypatch.setattr(harness.score, "REPEATS", 16)  # 16 runs: the chance of no change is 1 in 32768
    score = harness.score_tests("import random\n\ndef test_coin():\n    assert random.random() < 0.5\n", "leap_year")
    assert score["smells"]["flaky"] == ["test_coin"]


@pytest.mark.slow
def test_tests_that_cannot_run_are_not_valid_and_say_why():
    score = harness.score_tests("def test_x(:\n", "leap_year")
    assert not score["valid"] and "SyntaxError" in score["error"] and score["tests"] == []
    assert score["score"] == (0, len(LEAP_YEAR.buggy))


def test_an_assertion_may_live_in_a_helper_or_a_raises_block():
    source = '''\
import pytest


def _rejects(value):
    with pytest.raises(ValueError):
        f(value)


def test_uses_the_helper():
    _rejects(0)


def test_raises():
    with pytest.raises(ValueError):
        f(-1)


def test_calls_only():
    f(1)
'''
    assert no_assertion(source) == ["test_calls_only"]


def test_matrix_with_a_module_has_one_column_per_test_function():
    solutions = {"reference": LEAP_YEAR.reference, "centuries": LEAP_YEAR.buggy["forgets_centuries"]}
    grid = harness.matrix(solutions, LEAP_YEAR.script.tests)
    assert grid["solutions"] == ["reference", "centuries"]
    assert grid["tests"][:3] == ["test_typical_leap_years", "test_typical_common_years",
                                 "test_centuries_are_not_leap_years"]
    assert grid["passed"][0] == [True] * 5
    assert grid["passed"][1] == [True, True, False, True, True]


@pytest.mark.slow
def test_matrix_with_a_list_of_tests_runs_each_pair():
    tests = ["def test_a():\n    assert is_leap_year(1900) is False\n", "def test_b():\n    assert is_leap_year(4)\n"]
    grid = harness.matrix([LEAP_YEAR.reference, LEAP_YEAR.buggy["forgets_centuries"], "x = ("], tests)
    assert grid["tests"] == ["test 1", "test 2"] and grid["solutions"] == ["solution 1", "solution 2", "solution 3"]
    assert grid["passed"] == [[True, True], [False, True], [False, False]]
    assert grid["seconds"] > 0


@pytest.mark.slow
def test_eight_solutions_by_twelve_tests_stay_fast(capsys):
    solutions, tests = leap_year_grid()
    assert (len(solutions), len(tests)) == (8, 12)
    grid = harness.matrix(solutions, tests)
    assert grid["passed"][0] == [True] * 12 and not all(grid["passed"][-1])
    with capsys.disabled():
        print(f"\nmatrix 8 x 12 on leap year (96 runs): {grid['seconds']:.1f} s")
    assert grid["seconds"] < 60
