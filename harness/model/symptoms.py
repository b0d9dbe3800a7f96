"""What feedback says went wrong, as the offline model reads it: tests by name, and the calls pytest quotes."""

# Three ways in, on every task, with nothing written for one task here:
#   1. the names of the model's own tests (`Fix.tests`);
#   2. other test names, whose words name a rule (`Fix.rule`: "test_century_is_not_leap" names the century rule);
#   3. the calls pytest quotes with literal arguments ("where True = is_leap_year(1900)", "median([1, 2])", a
#      parametrized id "test_x[90]"), with the value expected when the assert says it ("assert True is False").
# A call points at the repair that changes what the function gives for it: the model runs its own versions of the
# function (first attempt, then each repair; code the lab wrote) on the arguments, never code from the prompt.
# Lines of test source ("assert f(400) == 'CD'", a pasted test module) report nothing: only what a run printed does.

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from .. import syntax
from ..tasks import Task

MAX_CALLS = 20  # quoted calls read from one prompt: feedback quotes a few, and a grader runs this for every prompt
MAX_NAMES = 50  # test names read from one prompt, for the same reason
MAX_ARGUMENTS = 500  # characters of one call's arguments read
TEST_NAME = re.compile(r"(\bdef[ \t]+)?\b(test_[a-z0-9]\w*)(\[[^\]\n]{0,200}\])?", re.I)
_CODE_LINE = re.compile(  # the start of a line of Python: a statement, a doctest, or indented (a test's body)
    r"[ \t]|>>>|\.\.\.|(?:assert|def|with|for|while|if|elif|return|yield|print|import|from)\b|[@#]|\w+[ \t]*=[^=]"
)
_WHERE = re.compile(r"\bwhere[ \t]+(.{1,300}?)[ \t]+=[ \t]*$")  # pytest: "+  where True = is_leap_year(1900)"
_LOCATION = re.compile(r"\.py:\d+: in \w+[ \t]*$")  # pytest --tb=short, over the failing line
_ASSERT = re.compile(r"\bassert[ \t]+(.{1,600})$")
_NOTHING = object()  # no value expected
_UNREADABLE = (ValueError, TypeError, SyntaxError, MemoryError, RecursionError)  # what reading a literal can raise


@dataclass(frozen=True)
class Failure:
    """One thing feedback says failed (a test's name or a call, as it said it), and the repair it points at:
    an index into `Script.fixes`, or None if the model cannot tell which rule it is about."""

    said: str
    fix: int | None


def failures(text: str, task: Task) -> tuple[Failure, ...]:
    """What `text` says failed, in the order it says it (each said once); () for a task with no script."""
    if task.script is None:
        return ()
    found: dict[str, int | None] = {}
    for said, fix in (*_by_name(text, task), *_by_call(text, task)):
        if found.get(said) is None:
            found[said] = fix
    return tuple(Failure(said, fix) for said, fix in found.items())


def test_names(source: str) -> list[str]:
    """The names of the test functions a test module defines, in order (read from the text, not imported)."""
    return re.findall(r"^def[ \t]+(test_\w+)", source, re.M)


def named_tests(text: str) -> list[tuple[str, str]]:
    """(name, parametrized id or "") of each test the text names, not counting definitions (`def test_...`) and
    test files (`test_solution.py`)."""
    named = []
    for m in TEST_NAME.finditer(text):
        if not m.group(1) and text[m.end(2) : m.end(2) + 3] != ".py":
            named.append((m.group(2), (m.group(3) or "")[1:-1]))
    return named


def _by_name(text: str, task: Task):
    tried = 0
    for name, ident in list(dict.fromkeys(named_tests(text)))[:MAX_NAMES]:
        fix = next((i for i, f in enumerate(task.script.fixes) if name in f.tests), None)
        yield name, _rule_of(name, task) if fix is None else fix
        if ident and tried < MAX_CALLS:  # the parametrized argument, as pytest shows it: "90" is 90 or "90"
            tried += 1
            for argument in _id_values(ident):
                fix = _fix_for(task, (argument,), {})
                if fix is not None:
                    yield _said(task.function, (argument,), {}), fix
                    break


def _rule_of(name: str, task: Task) -> int | None:
    """The first repair whose rule the test's name names ("test_century_is_not_leap": the century rule)."""
    words = name.replace("_", " ")
    return next((i for i, fix in enumerate(task.script.fixes) if any(_rule(w).search(words) for w in fix.rule)), None)


@functools.lru_cache(maxsize=256)
def _rule(word: str) -> re.Pattern:
    return re.compile(word, re.I)


def _id_values(ident: str) -> list:
    try:
        return [syntax.literal(ident), ident]
    except _UNREADABLE:
        return [ident]


def _by_call(text: str, task: Task):
    calls = re.compile(rf"(?<![\w.]){re.escape(task.function)}\(")
    for count, m in enumerate(calls.finditer(text)):
        if count == MAX_CALLS:
            return
        start = text.rfind("\n", 0, m.start()) + 1
        before = text[start : m.start()]
        if _CODE_LINE.match(before) and not _printed(text, start, before):  # test source, not what a run printed
            continue
        call = _call_at(text, m.end())
        if call is not None:
            args, kwargs = call
            said = _said(task.function, args, kwargs)
            yield said, _fix_for(task, args, kwargs, _expected(text, start, before, said))


def _said(function: str, args: tuple, kwargs: dict) -> str:
    """The call as Python writes it (`ast.unparse` too), so "f(1_000)" and pytest's "f(1000)" are one call."""
    return f"{function}({', '.join([*map(repr, args), *(f'{k}={v!r}' for k, v in kwargs.items())])})"


def _printed(text: str, start: int, before: str) -> bool:
    """Whether pytest printed the line: marked ">" (the failing line) or "E", a "where", or the line under a
    short traceback's "test_x.py:3: in test_name" (the failing line again)."""
    if before.lstrip(" \t").startswith(("> ", ">\t", "E ")) or _WHERE.search(before):
        return True
    above = text[text.rfind("\n", 0, max(start - 1, 0)) + 1 : max(start - 1, 0)]
    return bool(_LOCATION.search(above))


def _call_at(text: str, opened: int):
    """(args, kwargs) of the call whose "(" ends at `opened`, if all its arguments are literals; None otherwise."""
    depth, quote, i, end = 1, "", opened, min(len(text), opened + MAX_ARGUMENTS)
    while i < end and depth:
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "\n":
            return None
        i += 1
    if depth:
        return None
    source = text[opened : i - 1]
    try:
        call = syntax.parse(f"f({source})", mode="eval").body
        args = tuple(ast.literal_eval(a) for a in call.args)
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    except _UNREADABLE:
        return None
    return args, kwargs


def _expected(text: str, start: int, before: str, said: str):
    """The value an assert expects of the call: "assert f(x) == y" on its line, or, after pytest's
    "where True = f(x)", the other side of True in the assert before it ("assert True is False")."""
    where = _WHERE.search(before)
    if not where:
        end = text.find("\n", start)
        return _other_side(text[start : end if end >= 0 else None], said)
    value, above = where.group(1), [before[: where.start()]]
    for _ in range(3):  # the assert line, a few lines up (pytest puts a diff's lines in between)
        end = start - 1
        if end < 0:
            break
        start = text.rfind("\n", 0, end) + 1
        above.append(text[start:end])
    return next((found for line in above if (found := _other_side(line, value)) is not _NOTHING), _NOTHING)


def _other_side(line: str, side: str):
    """The literal on the other side of `==` or `is` from `side`, in the line's assert."""
    stated = _ASSERT.search(line)
    if not stated:
        return _NOTHING
    try:
        tree = syntax.parse(stated.group(1).strip(), mode="eval").body
        if isinstance(tree, ast.Tuple) and tree.elts:  # "assert f(x) is False, x"
            tree = tree.elts[0]
        if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], (ast.Eq, ast.Is))):
            return _NOTHING
        for this, other in ((tree.left, tree.comparators[0]), (tree.comparators[0], tree.left)):
            if ast.unparse(this) == side:
                return ast.literal_eval(other)
    except _UNREADABLE:
        return _NOTHING
    return _NOTHING


def _fix_for(task: Task, args: tuple, kwargs: dict, expected=_NOTHING) -> int | None:
    """The repair that changes what the function gives for these arguments (to the expected value, if known)."""
    script = task.script
    versions = (script.first_attempt, *(fix.code for fix in script.fixes))
    outcomes = [_outcome(code, task.function, args, kwargs) for code in versions]
    changes = [k for k in range(1, len(outcomes)) if outcomes[k] != outcomes[k - 1]]
    right = [k for k in changes if expected is not _NOTHING and outcomes[k] == ("returns", expected)]
    chosen = right or changes
    return chosen[0] - 1 if chosen else None


def _outcome(code: str, function: str, args: tuple, kwargs: dict) -> tuple:
    try:
        value = _function(code, function)(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - what the function does with these arguments, error or not
        return ("raises", type(error).__name__)
    return ("returns", value)


@functools.lru_cache(maxsize=64)
def _function(code: str, function: str):
    """The lab's own version of the function (its first attempt or a repair), defined once."""
    namespace: dict = {}
    exec(compile(code, f"<{function}>", "exec"), namespace)  # the lab's code, never the prompt's
    return namespace[function]
