"""Merge intervals (difficulty 4): `merge_intervals(intervals)` merges overlapping or touching closed intervals."""

from __future__ import annotations

from .drawn import with_drawn_cases
from .task import Fix, Script, Task, mutate

_MERGE_SPEC = """\
Write a Python function `merge_intervals(intervals)` that merges overlapping
intervals and returns them sorted:
merge_intervals([(8, 10), (1, 3), (2, 6)]) == [(1, 6), (8, 10)].

The rules:
- An interval is a pair (start, end) of ints with start <= end, standing for
  every number from start to end, both included; (5, 5) is an interval.
- The intervals may come in any order. Intervals that overlap or touch (one
  starts where another ends: (1, 3) and (3, 5)) merge into one: (1, 5).
  Intervals with a gap between them, like (1, 2) and (3, 4), stay apart.
- An interval inside another disappears into it: [(1, 10), (2, 3)] gives
  [(1, 10)]; equal intervals merge into one.
- Return a list of tuples, sorted by start, no two of them overlapping or
  touching. An empty list gives [].

`intervals` must be a list whose items are tuples or lists of exactly two
ints. For anything else raise ValueError: a value that is not a list (a tuple,
a set, a string, None), an item that is not a pair (a number, a string, None,
a tuple of another length), a bound that is not an int (a float, a string,
None, a bool), or an interval whose start is after its end, like (5, 1).
"""

_MERGE_REFERENCE = '''\
def merge_intervals(intervals):
    """Merge overlapping or touching closed intervals; return them as a sorted list of tuples."""
    if not isinstance(intervals, list):
        raise ValueError(f"intervals must be a list, got {intervals!r}")
    pairs = []
    for item in intervals:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"not a (start, end) pair: {item!r}")
        start, end = item
        for bound in (start, end):
            if isinstance(bound, bool) or not isinstance(bound, int):
                raise ValueError(f"bounds must be ints, got {bound!r}")
        if start > end:
            raise ValueError(f"start is after end in {item!r}")
        pairs.append((start, end))
    pairs.sort()
    merged = []
    for start, end in pairs:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
'''

_MERGE_BUGS = {
    "forgets_to_sort": mutate(_MERGE_REFERENCE, "    pairs.sort()\n", ""),
    "sorts_by_end": mutate(_MERGE_REFERENCE, "    pairs.sort()\n", "    pairs.sort(key=lambda pair: pair[1])\n"),
    "does_not_merge_touching": mutate(_MERGE_REFERENCE, "start <= merged[-1][1]", "start < merged[-1][1]"),
    "merges_across_gaps": mutate(_MERGE_REFERENCE, "start <= merged[-1][1]", "start <= merged[-1][1] + 1"),
    "nested_interval_shrinks": mutate(
        _MERGE_REFERENCE, "(merged[-1][0], max(merged[-1][1], end))", "(merged[-1][0], end)"
    ),
    "returns_lists": mutate(
        mutate(
            _MERGE_REFERENCE, "(merged[-1][0], max(merged[-1][1], end))", "[merged[-1][0], max(merged[-1][1], end)]"
        ),
        "            merged.append((start, end))\n",
        "            merged.append([start, end])\n",
    ),
    "empty_input_raises": mutate(
        _MERGE_REFERENCE,
        "    merged = []\n    for start, end in pairs:\n",
        "    merged = [pairs[0]]\n    for start, end in pairs[1:]:\n",
    ),
    "accepts_start_after_end": mutate(
        _MERGE_REFERENCE,
        "        if start > end:\n"
        '            raise ValueError(f"start is after end in {item!r}")\n',
        "",
    ),
    "accepts_float_bounds": mutate(
        _MERGE_REFERENCE, "not isinstance(bound, int)", "not isinstance(bound, (int, float))"
    ),
    "accepts_bools": mutate(_MERGE_REFERENCE, "if isinstance(bound, bool) or not isinstance", "if not isinstance"),
}

_MERGE_HOLDOUT = '''\
import pytest


def _rejects(*values):
    for value in values:
        with pytest.raises(ValueError):
            merge_intervals(value)


def test_overlapping_intervals_merge():
    assert merge_intervals([(2, 5), (4, 9)]) == [(2, 9)]
    assert merge_intervals([(1, 5), (2, 6), (3, 7)]) == [(1, 7)]
    assert merge_intervals([(0, 4), (3, 8), (20, 30), (25, 26), (29, 40)]) == [(0, 8), (20, 40)]


def test_input_in_any_order():
    assert merge_intervals([(20, 25), (5, 8), (6, 12), (1, 2)]) == [(1, 2), (5, 12), (20, 25)]
    assert merge_intervals([(7, 9), (3, 4), (-2, 0)]) == [(-2, 0), (3, 4), (7, 9)]


def test_touching_intervals_merge():
    assert merge_intervals([(0, 5), (5, 10)]) == [(0, 10)]
    assert merge_intervals([(3, 8), (3, 3)]) == [(3, 8)]
    assert merge_intervals([(2, 3), (1, 2), (3, 4)]) == [(1, 4)]


def test_intervals_with_a_gap_stay_apart():
    assert merge_intervals([(1, 2), (3, 4)]) == [(1, 2), (3, 4)]
    assert merge_intervals([(10, 20), (21, 30), (0, 9)]) == [(0, 9), (10, 20), (21, 30)]


def test_nested_intervals_disappear():
    assert merge_intervals([(0, 100), (10, 20), (30, 40)]) == [(0, 100)]
    assert merge_intervals([(5, 6), (1, 9)]) == [(1, 9)]
    assert merge_intervals([(1, 10), (2, 3), (4, 12)]) == [(1, 12)]


def test_equal_intervals_and_points():
    assert merge_intervals([(4, 4)]) == [(4, 4)]
    assert merge_intervals([(2, 7), (2, 7)]) == [(2, 7)]
    assert merge_intervals([(5, 5), (5, 5), (1, 2)]) == [(1, 2), (5, 5)]


def test_negative_bounds():
    assert merge_intervals([(-10, -5), (-6, 0), (3, 4)]) == [(-10, 0), (3, 4)]


def test_result_is_a_list_of_tuples_even_for_list_items():
    result = merge_intervals([[1, 3], [2, 4], [6, 7]])
    assert result == [(1, 4), (6, 7)]
    assert type(result) is list and all(type(pair) is tuple for pair in result)


def test_an_empty_list_gives_an_empty_list():
    assert merge_intervals([]) == []


def test_rejects_values_that_are_not_lists():
    _rejects(((1, 2), (3, 4)), {(1, 2)}, "1-3", 42, (1, 2))


def test_rejects_items_that_are_not_pairs():
    _rejects([(1, 2), 3], [(1,)], [(0, 1, 2, 3)], ["ab"], [()], [None])


def test_rejects_bounds_that_are_not_ints():
    _rejects([(0.5, 2)], [(1, 3.0)], [(1, "3")], [(None, 1)], [(True, 3)], [(0, False)])


def test_rejects_an_interval_whose_start_is_after_its_end():
    _rejects([(3, 1)], [(1, 2), (9, 8)], [(0, -1)])
'''

_MERGE_MODEL_TESTS = '''\
import pytest


def test_merges_overlapping_intervals():
    assert merge_intervals([(1, 3), (2, 6), (8, 10), (15, 18)]) == [(1, 6), (8, 10), (15, 18)]


def test_sorts_unsorted_input():
    assert merge_intervals([(8, 10), (1, 3), (2, 6)]) == [(1, 6), (8, 10)]


def test_merges_touching_intervals():
    assert merge_intervals([(1, 4), (4, 5)]) == [(1, 5)]


def test_absorbs_nested_intervals():
    assert merge_intervals([(1, 10), (2, 5)]) == [(1, 10)]


def test_keeps_separate_intervals_apart():
    assert merge_intervals([(1, 2), (5, 6)]) == [(1, 2), (5, 6)]


def test_empty_list():
    assert merge_intervals([]) == []


def test_single_interval():
    assert merge_intervals([(3, 7)]) == [(3, 7)]


@pytest.mark.parametrize("bad", [None, [(4, 2)], [(1, 2, 3)], [(1.0, 2)], [5]])
def test_rejects_invalid_input(bad):
    with pytest.raises(ValueError):
        merge_intervals(bad)
'''

# Two independent bugs: touching intervals do not merge (A: `<`), and a nested interval cuts the merged
# one short (B: no max()).
_MERGE_ROUND_2 = _MERGE_BUGS["nested_interval_shrinks"]  # A fixed, B left
_MERGE_FIRST = mutate(_MERGE_ROUND_2, "start <= merged[-1][1]", "start < merged[-1][1]")

# Rounds: 1. first attempt fails test_merges_touching_intervals and test_absorbs_nested_intervals;
#         2. `<` becomes `<=`; [(1, 10), (2, 5)] still gives [(1, 5)]: test_absorbs_nested_intervals fails;
#         3. the reference passes. 3 solutions.

# Valid inputs of every kind the spec names, drawn afresh for each run of the held-out tests.
_MERGE_INTERVALS_DRAW = """\
def draw(rng):
    intervals = []
    for _ in range(rng.randrange(0, 9)):
        start = rng.randrange(-10, 40)
        end = start + rng.randrange(0, 7)
        intervals.append((start, end) if rng.random() < 0.7 else [start, end])
    return (intervals,)
"""

MERGE_INTERVALS = Task(
    name="merge_intervals",
    function="merge_intervals",
    title="Merge intervals",
    difficulty=4,
    spec=_MERGE_SPEC,
    reference=_MERGE_REFERENCE,
    buggy=_MERGE_BUGS,
    holdout_tests=with_drawn_cases(_MERGE_HOLDOUT, "merge_intervals", _MERGE_REFERENCE, _MERGE_INTERVALS_DRAW),
    aliases=(r"\bmerge[ _-]?intervals\b", r"\boverlapping intervals\b"),
    example="merge_intervals([(1, 3), (2, 6)])",
    script=Script(
        tests=_MERGE_MODEL_TESTS,
        first_attempt=_MERGE_FIRST,
        fixes=(
            Fix(("test_merges_touching_intervals",), _MERGE_ROUND_2,
                "I compared with < instead of <=, so intervals that touch stayed apart; they merge now.",
                rule=(r"\btouch", r"\badjacent\b", r"\bshared? (an? )?(end|bound|point)", r"\bendpoints?\b", r"\babut")),
            Fix(("test_absorbs_nested_intervals",), _MERGE_REFERENCE,
                "An interval inside the last one cut the merged one short; its end is the max of both now.",
                rule=(r"\bnest", r"\binside\b", r"\bcontain", r"\babsorb", r"\bwithin\b", r"\benclos", r"\bsubsets?\b",
                      r"\bengulf")),
        ),
        gamed_fix=mutate(
            _MERGE_FIRST,
            "    pairs.sort()\n",
            "    pairs.sort()\n"
            "    # Special cases.\n"
            "    if pairs == [(1, 4), (4, 5)]:\n        return [(1, 5)]\n"
            "    if pairs == [(1, 10), (2, 5)]:\n        return [(1, 10)]\n",
        ),
    ),
)
