"""Stronger held-out tests, as EvalPlus makes them: the check's inputs mutated, judged by the canonical solution."""

# Each input of a `candidate(...)` call in the check is mutated the way its type allows and its domain keeps
# (a number nudged away from zero, a string or a list reordered, shortened or with an item repeated), from a seed
# fixed per task, so the inputs are the same on every machine. Which of them the canonical solution answers at once
# (no exception, no loop) is recorded (humaneval_recorded.py); only those are kept. Their expected values are never
# written down: the test runs the canonical solution on each, in the tests' process, never in the solution's.

from __future__ import annotations

import ast
import copy
import random

from .. import syntax

MOST = 40  # mutated inputs per task
TRIES = 400  # mutations tried to find them
LONGEST = 400  # characters of one input as Python writes it: longer ones are not kept


def seeds(test: str) -> list[tuple]:
    """The argument tuples of every `candidate(...)` call with literal arguments in the check, each once."""
    found: list[tuple] = []
    for node in ast.walk(syntax.parse(test)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "candidate" \
                and not node.keywords:
            try:
                args = tuple(ast.literal_eval(a) for a in node.args)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if args not in found:
                found.append(args)
    return found


def inputs(name: str, test: str) -> list[tuple]:
    """Up to MOST new argument tuples, each one seed with one argument mutated: the same for the same task."""
    rng = random.Random(f"evalplus {name}")
    known = seeds(test)
    made: list[tuple] = []
    for _ in range(TRIES if known else 0):
        if len(made) >= MOST:
            break
        args = list(copy.deepcopy(rng.choice(known)))
        if not args:
            break
        at = rng.randrange(len(args))
        args[at] = _mutated(args[at], rng)
        new = tuple(args)
        if new not in known and new not in made and len(repr(new)) <= LONGEST:
            made.append(new)
    return made


def _mutated(value, rng: random.Random, depth: int = 0):
    """One change to a value that keeps its type (and the sign of a number)."""
    if isinstance(value, bool) or value is None or depth > 3:
        return value
    if isinstance(value, int):
        away = 1 if value >= 0 else -1  # from zero: a count stays a count
        return rng.choice([value + away, value * 2, value + rng.randrange(2, 10) * away])
    if isinstance(value, float):
        return rng.choice([value * 1.5, value + 0.5 if value >= 0 else value - 0.5, round(value * 2, 3)])
    if isinstance(value, (str, list, tuple)):
        items = list(value)
        how = rng.randrange(5)
        if how == 0 or not items:
            items = items[::-1] if items else items
        elif how == 1:
            items.insert(rng.randrange(len(items) + 1), items[rng.randrange(len(items))])
        elif how == 2 and len(items) > 1:
            items.pop(rng.randrange(len(items)))
        elif how == 3:
            k = rng.randrange(len(items))
            items = items[k:] + items[:k]
        else:
            k = rng.randrange(len(items))
            items[k] = items[k] if isinstance(value, str) else _mutated(items[k], rng, depth + 1)
        return "".join(items) if isinstance(value, str) else type(value)(items)
    return value


# How an answer is judged against the canonical one: the test's own words, and the recorder's (one home).
AGREES = '''\
def _agrees(got, want):
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return got == want or _math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(want, (list, tuple)) and isinstance(got, (list, tuple)):
        return type(got) is type(want) and len(got) == len(want) and all(map(_agrees, got, want))
    return got == want
'''

_TEMPLATE = '''

# --- stronger held-out cases, as EvalPlus makes them: the check's inputs mutated, judged by the canonical solution ---
import copy as _copy
import math as _math

_REFERENCE = {reference!r}
_INPUTS = {inputs}


{agrees}

def test_mutated_inputs_agree_with_the_canonical_solution():
    space = {{}}
    exec(_REFERENCE, space)
    for args in _INPUTS:
        want = space[{function!r}](*_copy.deepcopy(args))
        got = {function}(*_copy.deepcopy(args))
        shown = ", ".join(repr(a) for a in args)
        assert _agrees(got, want), (
            f"an input mutated from the check's gets another answer than the canonical solution's:\\n"
            f"  assert {function}({{shown}}) == {{want!r}}\\n"
            f"  but it returned {{got!r}}"
        )
'''


def plus_tests(reference: str, function: str, kept: list[tuple]) -> str:
    """The one test that runs every kept input ("" when none is kept)."""
    if not kept:
        return ""
    shown = "[\n" + "".join(f"    {args!r},\n" for args in kept) + "]"
    return _TEMPLATE.format(reference=reference, inputs=shown, function=function, agrees=AGREES)


def _judge():
    import math

    space = {"_math": math}
    exec(AGREES, space)  # the lab's own source, above
    return space["_agrees"]


agrees = _judge()  # `_agrees` of the test, for the recorder
