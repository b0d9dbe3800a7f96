"""How good a test suite is (`score_tests`) and which solutions pass which tests (`matrix`), built on `run`."""

# `score_tests` judges tests the way cs50 grades a student's tests: a correct reference must pass them, and each
# planted bug should fail them (a mutation-style score). It also names the smells: a test that asserts nothing, a
# test a solution returning a constant passes, a test whose verdict changes between runs. `matrix` runs N
# solutions against M tests and returns who passes what.

from __future__ import annotations

import ast
import os
import time
from concurrent.futures import ThreadPoolExecutor

from . import sandbox, syntax
from .tasks import Task, task as find_task

BROKEN = "raise ImportError('no solution: the lab lists the tests')\n"  # every test fails: the roster of names
CONSTANTS = (None, False, True, 0, "", [])  # what a solution that ignores its input might return
REPEATS = 3  # runs of the reference, to catch a test whose verdict changes between runs
WORKERS = 4  # runs at once with the lab's own sandbox (most of a run is waiting on its processes)


def score_tests(test_src: str, task: Task | str | None = None) -> dict:
    """Score a test suite against a task's reference and planted bugs.

    Returns a dict:
        task        the task's name
        valid       True if the tests run and all pass on the reference (else the score means little)
        error       why the tests could not run on the reference, or None
        tests       the test names (parametrized cases named one by one)
        wrong       tests that fail on the reference: they encode something the spec does not say
        caught      planted bugs some test catches: a test that passes on the reference fails on the bug
        missed      planted bugs every test lets through
        by          {bug: [tests that catch it]}
        score       (len(caught), number of planted bugs)
        smells      {"no assertion": [test functions], "passes on a constant": {test: "return False"},
                     "flaky": [tests whose verdict changed between runs of the reference]}

    >>> score_tests("def test_2024():\\n    assert is_leap_year(2024) is True\\n", "leap_year")["score"]
    (2, 5)
    """
    task = find_task(task)
    roster_run, *reference_runs = _runs([BROKEN] + [task.reference] * REPEATS, test_src)
    names = roster_run["failed"]
    reference = reference_runs[0]
    wrong = [n for n in names if all(_fails(r, n) for r in reference_runs)]
    good = [n for n in names if n not in wrong]
    flaky = [n for n in names if len({_fails(r, n) for r in reference_runs}) > 1]
    bugs = dict(zip(task.buggy, _runs(list(task.buggy.values()), test_src)))
    by = {bug: [n for n in good if n not in flaky and _fails(result, n)] for bug, result in bugs.items()}
    constants = _runs([_constant(task.function, c) for c in CONSTANTS], test_src)
    on_constant = {}
    for value, result in zip(CONSTANTS, constants):
        for function in _functions_passing(names, result):
            on_constant.setdefault(function, f"return {value!r}")
    return {
        "task": task.name,
        "valid": reference["error"] is None and not reference["failed"] and reference["passed"] > 0,
        "error": reference["error"] or (None if names else roster_run["error"]),
        "tests": names,
        "wrong": wrong,
        "caught": [bug for bug, tests in by.items() if tests],
        "missed": [bug for bug, tests in by.items() if not tests],
        "by": by,
        "score": (sum(1 for tests in by.values() if tests), len(by)),
        "smells": {
            "no assertion": no_assertion(test_src),
            "passes on a constant": {f: why for f, why in on_constant.items() if f not in _base(wrong)},
            "flaky": flaky,
        },
    }


def matrix(solutions, tests, *, timeout: float | None = None) -> dict:
    """Run each solution against each test and return the pass matrix.

    `solutions`: a list of sources, or a dict {label: source}. `tests`: one test module (each of its test
    functions is a column), or a list / dict of test sources (each a column, passed when all of it passes).
    Returns {"solutions": [labels], "tests": [labels], "passed": [[bool, ...] one row per solution], "seconds"}.
    """
    started = time.perf_counter()
    rows, row_labels = _labelled(solutions, "solution")
    options = {} if timeout is None else {"timeout": timeout}
    if isinstance(tests, str):
        roster = _runs([BROKEN], tests, **options)[0]["failed"]
        columns = list(dict.fromkeys(_base([n])[0] for n in roster))
        results = _runs(rows, tests, **options)
        passed = [[not r["error"] and not any(_base([n])[0] == c for n in r["failed"]) for c in columns]
                  for r in results]
    else:
        sources, columns = _labelled(tests, "test")
        pairs = [(s, t) for s in rows for t in sources]
        results = _map(lambda pair: sandbox.run(pair[0], pair[1], **options), pairs)
        flat = [r["error"] is None and not r["failed"] and r["passed"] > 0 for r in results]
        passed = [flat[i * len(sources) : (i + 1) * len(sources)] for i in range(len(rows))]
    return {"solutions": row_labels, "tests": columns, "passed": passed, "seconds": time.perf_counter() - started}


def no_assertion(test_src: str) -> list[str]:
    """Test functions that check nothing: no assert, no pytest.raises or warns, no helper of the module that does."""
    try:
        tree = syntax.parse(test_src)
    except (SyntaxError, ValueError):
        return []
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    checking = {name for name, node in functions.items() if _checks(node, set())}
    checking |= {name for name, node in functions.items() if _checks(node, checking)}  # helpers of helpers
    return [name for name in functions if name.startswith("test") and name not in checking]


def _checks(node: ast.AST, helpers: set[str]) -> bool:
    for child in ast.walk(node):
        if isinstance(child, ast.Assert):
            return True
        if isinstance(child, ast.Call):
            callee = child.func.attr if isinstance(child.func, ast.Attribute) else getattr(child.func, "id", "")
            if callee in ("raises", "warns", "deprecated_call", "fail") or callee.startswith("assert"):
                return True
            if callee in helpers:
                return True
    return False


def _constant(function: str, value) -> str:
    return f"def {function}(*args, **kwargs):\n    return {value!r}\n"


def _fails(result: dict, name: str) -> bool:
    return bool(result["error"]) or name in result["failed"]


def _functions_passing(names: list[str], result: dict) -> list[str]:
    """Test functions all of whose cases passed in a run."""
    if result["error"]:
        return []
    functions = dict.fromkeys(_base(names))
    failed = set(_base(result["failed"]))
    return [f for f in functions if f not in failed]


def _base(names) -> list[str]:
    return [str(n).split("[")[0] for n in names]


def _labelled(items, kind: str) -> tuple[list[str], list[str]]:
    if isinstance(items, dict):
        return list(items.values()), [str(k) for k in items]
    items = list(items)
    return items, [f"{kind} {i}" for i in range(1, len(items) + 1)]


def _runs(solutions: list[str], test_src: str, **options) -> list[dict]:
    return _map(lambda solution: sandbox.run(solution, test_src, **options), solutions)


def _map(function, items: list) -> list:
    """`function` over items, a few at a time with the lab's own sandbox; one at a time where `run` is answered
    over an agent's wire (inside an agent's process), which takes one request at a time."""
    if sandbox.run.__module__ != "harness.sandbox.caller" or len(items) < 2:
        return [function(item) for item in items]
    with ThreadPoolExecutor(max_workers=min(WORKERS, 2 * (os.cpu_count() or 1))) as pool:
        return list(pool.map(function, items))
