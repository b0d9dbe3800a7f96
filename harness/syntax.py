"""Python source read into syntax trees, safely from any number of threads at once.

CPython 3.11 before 3.11.8, and 3.12 before 3.12.2, counts the depth of each tree it builds in one counter shared by
all threads; when a garbage collection inside one parse lets another thread parse, both can fail with
"SystemError: AST constructor recursion depth mismatch" (python/cpython gh-106905). The lab parses learners' and
models' code in many threads at once (a class graded with --jobs, the checks' threads), and a check that failed
that way read as a student's wrong answer. So every tree the lab builds is built here, one at a time.
"""

from __future__ import annotations

import ast
import threading

# Held while a tree is built from source (parse) or code is built from a tree (compile of an ast.AST). Reentrant:
# a finalizer run by a collection during a parse may parse in the same thread.
LOCK = threading.RLock()


def parse(source, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """`ast.parse(source, filename, mode)`, one thread at a time."""
    with LOCK:
        return ast.parse(source, filename, mode)


def literal(text: str):
    """`ast.literal_eval` of a string: the literal it spells (raises ValueError or SyntaxError if it spells none)."""
    return ast.literal_eval(parse(text.lstrip(" \t"), mode="eval"))
