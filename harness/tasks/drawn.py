"""Held-out cases drawn per run: inputs no fixed table can know, each judged against the task's reference."""

from __future__ import annotations

DRAWS = 60  # inputs drawn per run

# Appended to a task's named held-out tests. It runs in the tests' process, like them, so the reference and its
# answers never enter the solution's process. A fresh seed per run; a failure names the seed, to draw it again,
# and states the call and the spec's answer as an assert, as pytest shows a failing one (the offline model reads it).
_TEMPLATE = '''

# --- drawn for this run: inputs no fixed list can know, judged against the reference (differential testing) ---
import math as _math
import random as _random

_REFERENCE = {reference!r}
_DRAW = {draw!r}


def _agrees(got, want):
    if type(got) is not type(want):
        return False
    if isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(_agrees(g, w) for g, w in zip(got, want))
    if isinstance(want, float):
        return got == want or _math.isclose(got, want, rel_tol=1e-12)
    return got == want


def test_inputs_drawn_for_this_run_agree_with_the_spec():
    space = {{}}
    exec(_REFERENCE, space)
    exec(_DRAW, space)
    seed = _random.SystemRandom().randrange(2**32)
    rng = _random.Random(seed)
    for _ in range({draws}):
        args = space["draw"](rng)
        want = space[{function!r}](*args)
        got = {function}(*args)
        shown = ", ".join(repr(a) for a in args)
        assert _agrees(got, want), (
            f"one of the {draws} inputs drawn for this run (seed {{seed}}) gets another answer than the spec's:\\n"
            f"  assert {function}({{shown}}) == {{want!r}}\\n"
            f"  but it returned {{got!r}}"
        )
'''


def with_drawn_cases(named_tests: str, function: str, reference: str, draw: str, draws: int = DRAWS) -> str:
    """`named_tests` plus one test that calls `function` on `draws` inputs drawn by `draw` (source of
    `def draw(rng)`, returning a tuple of valid arguments) and compares each answer with `reference`'s."""
    return named_tests.rstrip("\n") + "\n" + _TEMPLATE.format(reference=reference, draw=draw, draws=draws,
                                                              function=function)
