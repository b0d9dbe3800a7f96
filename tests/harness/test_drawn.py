"""Held-out cases drawn per run: a table of the named held-out inputs passes them, but not the drawn ones."""

import ast
import random
import re

import pytest

import harness
import harness.model.reading
from harness.tasks import LEAP_YEAR, TASKS
from harness.tasks.drawn import DRAWS, with_drawn_cases

DRAWN_TEST = "test_inputs_drawn_for_this_run_agree_with_the_spec"


def literal_ints(source: str) -> set[int]:
    """Every int literal in `source`: the inputs a lookup table copied from the named held-out tests would hold."""
    return {n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and type(n.value) is int}


NAMED = LEAP_YEAR.holdout_tests.split("\n# --- drawn for this run")[0]
TABLE_OF_THE_NAMED_YEARS = f'''\
LEAP = {sorted(y for y in literal_ints(NAMED) if y > 0 and y % 4 == 0 and (y % 100 or y % 400 == 0))!r}


def is_leap_year(year):
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(year)
    return year in LEAP
'''


def draws_of(item, count: int, seed: int) -> list[tuple]:
    """`count` inputs drawn as a run of `item`'s held-out tests draws them, with `seed`."""
    space: dict = {}
    exec(_draw_source(item), space)
    rng = random.Random(seed)
    return [space["draw"](rng) for _ in range(count)]


def _draw_source(item) -> str:
    """The source of `draw` that `item`'s held-out tests carry."""
    tree = ast.parse(item.holdout_tests)
    return next(ast.literal_eval(n.value) for n in tree.body
                if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "_DRAW")


def test_a_table_of_the_named_held_out_years_passes_them_all_but_not_the_drawn_years():
    result = harness.run(TABLE_OF_THE_NAMED_YEARS, LEAP_YEAR.holdout_tests)
    assert result["error"] is None and result["failed"] == [DRAWN_TEST], result
    named = harness.run(TABLE_OF_THE_NAMED_YEARS, NAMED)
    assert named["error"] is None and named["failed"] == [] and named["passed"] == 8, named  # the fixed list alone


def test_a_failure_names_the_call_what_the_spec_gives_and_the_seed_and_each_run_draws_afresh():
    seeds = set()
    for _ in range(2):
        result = harness.run(TABLE_OF_THE_NAMED_YEARS, LEAP_YEAR.holdout_tests)
        said = re.search(rf"one of the {DRAWS} inputs drawn for this run \(seed (\d+)\) gets another answer than "
                         r"the spec's:\nE +assert is_leap_year\((\d+)\) == True\nE +but it returned False",
                         result["output"])
        assert said, result["output"]
        seeds.add(said.group(1))
    assert len(seeds) == 2


@pytest.mark.slow
@pytest.mark.parametrize("item", TASKS.values(), ids=TASKS.keys())
def test_every_draw_is_a_valid_input_the_reference_answers(item):
    space: dict = {}
    exec(item.reference, space)
    for seed in range(40):
        for args in draws_of(item, DRAWS, seed):
            space[item.function](*args)  # a draw the reference rejects would fail every correct solution


@pytest.mark.slow
@pytest.mark.parametrize("item", TASKS.values(), ids=TASKS.keys())
def test_the_reference_passes_the_drawn_cases_across_the_wall(item):
    result = harness.run(item.reference, item.holdout_tests)
    named = harness.model.reading.test_names(item.holdout_tests)
    assert named[-1] == DRAWN_TEST and result["error"] is None and result["failed"] == [], result
    assert result["passed"] == len(named), result


def test_an_answer_of_the_wrong_type_does_not_agree():
    tests = with_drawn_cases("", "to_roman", TASKS["to_roman"].reference, "def draw(rng):\n    return (4,)\n", 3)
    result = harness.run("def to_roman(n):\n    return list('IV')\n", tests)
    said = "assert to_roman(4) == 'IV'\nE       but it returned ['I', 'V']"
    assert result["failed"] == [DRAWN_TEST] and said in result["output"], result
