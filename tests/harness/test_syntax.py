"""harness/syntax.py: trees built from many threads at once never fail, and the lab builds no tree elsewhere."""

import ast
import difflib
import gc
import random
import re
import sys
import threading

import pytest

from harness import syntax
from tests.paths import ROOT

# The Pythons known to share one depth counter between threads' parses: the fix came in 3.11.8 and 3.12.2.
AFFECTED = (3, 11) <= sys.version_info < (3, 11, 8) or (3, 12) <= sys.version_info < (3, 12, 2)
SOURCE = (ROOT / "checks" / "engine.py").read_text(encoding="utf-8")


def _parse_in_threads(parse, threads: int = 8, each: int = 8) -> list[BaseException]:
    """Parse SOURCE in many threads while every garbage collection runs Python code (as a finalizer may): the way
    CPython's shared depth counter (gh-106905) goes wrong. The errors raised, if any."""
    errors = []

    def collecting(phase, info):
        lines = [[f"{random.random()}\n" for _ in range(40)] for _ in range(2)]
        list(difflib.unified_diff(*lines))

    def work():
        try:
            for _ in range(each):
                parse(SOURCE)
        except Exception as exc:  # noqa: BLE001 - what went wrong is the result
            errors.append(exc)

    gc.callbacks.append(collecting)
    try:
        started = [threading.Thread(target=work) for _ in range(threads)]
        for thread in started:
            thread.start()
        for thread in started:
            thread.join()
    finally:
        gc.callbacks.remove(collecting)
    return errors


def test_many_threads_parsing_at_once_never_fail():
    assert _parse_in_threads(syntax.parse) == []


@pytest.mark.skipif(not AFFECTED, reason="this Python counts each tree's depth on its own (gh-106905 is fixed in it)")
def test_this_python_needs_it():
    """Where the interpreter has the bug, the same load breaks a bare ast.parse: the lock is what holds."""
    errors = _parse_in_threads(ast.parse)
    assert any(isinstance(e, SystemError) and "recursion depth mismatch" in str(e) for e in errors), errors


def test_literal_reads_what_literal_eval_reads():
    assert syntax.literal(" \t(1, 'a', [2.5, None])") == (1, "a", [2.5, None])
    with pytest.raises(ValueError):
        syntax.literal("f(1)")


def test_the_lab_builds_every_tree_here():
    """No module of the lab calls ast.parse itself: a tree built outside the lock can break a grading beside it."""
    calls = re.compile(r"\bast\.parse\(")
    modules = [path for folder in ("harness", "checks", "lab", "solutions") for path in (ROOT / folder).rglob("*.py")
               if path != ROOT / "harness" / "syntax.py" and "node_modules" not in path.parts]
    assert len(modules) > 100
    assert [str(p.relative_to(ROOT)) for p in modules if calls.search(p.read_text(encoding="utf-8"))] == []
