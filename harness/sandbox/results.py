"""A run's result, built from the records its test process wrote: linear in them, bounded in size, errors on one line.

Test code runs in the test process, so nothing in its records is trusted: each record is checked, names are capped
in number and length, and text is cleaned of control characters before it reaches a learner's screen.
"""

from __future__ import annotations

import ast
import functools
import re

from .. import syntax
from ..text import clean, cut, one_line

MAX_OUTPUT = 8000  # characters of failure details returned, so a result stays small
MAX_TESTS = 10_000  # tests one result may name; more is a test error
MAX_TEST_SOURCE = 1 << 20  # characters of test source one run takes; more is a test error, read by no parser here
MAX_NAME = 300  # characters of one test's name
MAX_TEST_OUTPUT = MAX_OUTPUT // 2  # characters of one test's details in the output: the next failure shows too
MAX_ERROR = 400  # characters of the one-line error
KINDS = ("syntax error", "import error", "test error", "timeout", "memory", "crash", "no tests")


@functools.lru_cache(maxsize=32)
def static_names(test_src: str) -> tuple:
    """The tests a source defines, read without running anything (`test_*` functions, and methods of `Test*`
    classes): what `failed` names when the tests could not be collected."""
    if len(test_src) > MAX_TEST_SOURCE:  # too large to parse here (a parse takes ~150 times its size): by name only
        found = re.finditer(r"^(?:async[ \t]+)?def[ \t]+(test\w*)", test_src, re.M)
        return tuple(dict.fromkeys(m.group(1) for _, m in zip(range(MAX_TESTS), found)))
    try:
        tree = syntax.parse(test_src)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return ()
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names += [n.name for n in node.body
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")]
    return tuple(dict.fromkeys(names))[:MAX_TESTS]


def assemble(events, timed_out, timeout, isolation, test_src):
    """The result, from records the test process wrote (test code runs there: nothing in them is trusted).
    Linear in the records read, which are bounded (MAX_RECORDS), and bounded in size."""
    names, outcomes, details, error, printed, done = None, {}, {}, None, "", False
    kept = 0  # characters of details kept: past twice what the output holds, the rest is dropped unread
    for event in events:
        kind = event.get("event")
        if kind == "collected" and names is None and isinstance(event.get("names"), list):
            names = event["names"]
        elif kind == "test":
            name = _name(event.get("name"))
            outcomes[name] = event.get("outcome")
            if event.get("details") and kept < 2 * MAX_OUTPUT:
                details[name] = cut(event["details"], MAX_TEST_OUTPUT)
                kept += len(details[name])
        elif kind == "error" and error is None:
            error = (str(event.get("kind") or "crash"), str(event.get("message") or ""))
            if event.get("details"):
                loading = "(loading the tests)" if error[0] == "test error" else "(loading the solution)"
                details[loading] = cut(event["details"], MAX_TEST_OUTPUT)
        elif kind == "printed":
            printed = cut(event.get("text", ""), MAX_OUTPUT)
            if isinstance(event.get("cut"), int) and event["cut"]:
                printed += f"\n[... {event['cut']} more bytes printed, cut]"
        elif kind == "done":
            done = True
    if names is None:  # the tests were never collected: name them from the source
        names = list(static_names(test_src))
    else:
        names = list(dict.fromkeys(_name(n) for n in names))
        if len(names) > MAX_TESTS and error is None:
            error = ("test error", f"the tests define more than {MAX_TESTS} tests")
        names = names[:MAX_TESTS]
    if timed_out:
        error = ("timeout", f"the run did not finish within {timeout:g} s (does the solution loop forever?)")
    elif not done and error is None:
        error = ("crash", "the test process stopped before reporting all results")
    output = "\n\n".join(f"{name}:\n{text.strip()}" for name, text in details.items())
    if printed:
        output += ("\n\n" if output else "") + "The solution printed:\n" + printed
    if error is not None:
        kind, message = error
        kind = kind if kind.startswith(KINDS) else "crash"
        first, _, rest = clean(message).strip().partition("\n")
        if rest.strip():  # the rest of a long story goes to the output, never into the one-line error
            output = f"{kind}: {clean(message).strip()}\n\n{output}".rstrip()
        error = one_line(f"{kind}: {first}", MAX_ERROR)
    return result(names, outcomes, error, output, isolation)


def _name(name) -> str:
    return one_line(clean(name), MAX_NAME)


def result(names, outcomes, error, output, isolation):
    ran = error is None or not error.startswith(("syntax", "import"))
    passed = {n for n in names if outcomes.get(n) == "passed"} if ran else set()
    failed = [n for n in names if n not in passed]
    return {
        "passed": len(passed),
        "failed": failed,
        "total": len(names),
        "error": error,
        "output": clean(cut(output, MAX_OUTPUT)),
        "isolation": isolation,
    }
