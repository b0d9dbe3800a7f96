"""HumanEval's tests as the lab's: the docstring's examples as visible tests, `check` split into held-out ones."""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

from .. import syntax

_ARROWS = ("➞", "==>", "=>", "->", "→", "==", "should return", "returns", "return", "=")
_INPUT = re.compile(r"^\s*Input\s*:\s*(.+?)\s*$", re.I)
_OUTPUT = re.compile(r"^\s*Output\s*:\s*(.+?)\s*$", re.I)


@dataclass(frozen=True)
class Example:
    """One example of a docstring: an expression that calls the function, and the value it should have."""

    expression: str  # "below_zero([1, 2, 3])", or "round(find_zero([1, 2]), 2)"
    expected: str  # a literal, as Python writes it: "False"
    args: tuple | None  # the call's arguments, when the expression is that call alone (the gaming persona's key)


def docstring(prompt: str, function: str) -> str:
    """The docstring of `function` in the prompt ("" if it has none)."""
    for node in syntax.parse(prompt).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return ast.get_docstring(node, clean=False) or ""
    return ""


def parameters(prompt: str, function: str) -> list[str]:
    for node in syntax.parse(prompt).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return [a.arg for a in node.args.args]
    return []


def examples(prompt: str, function: str) -> list[Example]:
    """The examples the docstring gives that parse: doctests (`>>> f(x)` then the value), one-line examples
    (`f(x) ➞ y`, `f(x) == y`, `f(x) => y`), and `Input: a = ...` / `Output: ...` pairs, in the order given."""
    lines = docstring(prompt, function).splitlines()
    params = parameters(prompt, function)
    found: list[Example] = []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith(">>>"):
            expression, i = line[3:].strip(), i + 1
            while i < len(lines) and lines[i].strip().startswith("..."):
                expression, i = expression + "\n" + lines[i].strip()[3:], i + 1
            value = []  # its first line, and more only while they are not yet a whole literal
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(">>>"):
                value.append(lines[i].strip())
                i += 1
                if _literal(" ".join(value)):
                    break
            _add(found, expression, " ".join(value), function)
            continue
        given = _INPUT.match(lines[i])
        if given and i + 1 < len(lines) and (said := _OUTPUT.match(lines[i + 1])):
            _add(found, _input_call(function, given.group(1), params), said.group(1), function)
            i += 2
            continue
        call = _call_on_line(line, function)
        if call is not None:
            _add(found, *call, function)
        i += 1
    return found


def _input_call(function: str, given: str, params: list[str]) -> str:
    """`Input: arr = [1, 2], k = 3` as the call `f([1, 2], 3)` (arguments in the signature's order)."""
    try:
        call = syntax.parse(f"f({given})", mode="eval").body
    except (SyntaxError, ValueError):
        return ""
    if not isinstance(call, ast.Call):
        return ""
    named = {k.arg: k.value for k in call.keywords}
    if call.args or set(named) != set(params):
        return f"{function}({given})" if not named else ""
    return f"{function}({', '.join(ast.unparse(named[p]) for p in params)})"


def _call_on_line(line: str, function: str) -> tuple[str, str] | None:
    """(call, value) of a one-line example: the call of the function, an arrow, a value."""
    start = re.search(rf"(?<![\w.]){re.escape(function)}\(", line)
    if not start:
        return None
    depth, end = 0, None
    for j in range(start.end() - 1, len(line)):
        depth += {"(": 1, ")": -1}.get(line[j], 0)
        if depth == 0:
            end = j + 1
            break
    if end is None:
        return None
    rest = line[end:].strip()
    for arrow in _ARROWS:
        if rest.lower().startswith(arrow):
            return line[start.start() : end], rest[len(arrow) :].strip()
    return None


def _add(found: list[Example], expression: str, value: str, function: str) -> None:
    value = value.strip().rstrip(".,;").strip()
    try:
        tree = syntax.parse(expression, mode="eval").body
        syntax.literal(value)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == function]
    free = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - {function} - set(dir(builtins))
    if not calls or free:  # `is_happy(a)`: a name the example never defines, no example
        return
    args = None
    if tree is calls[0] and not tree.keywords:
        try:
            args = tuple(ast.literal_eval(a) for a in tree.args)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            args = None
    found.append(Example(ast.unparse(tree), ast.unparse(syntax.parse(value, mode="eval").body), args))


def _literal(text: str) -> bool:
    try:
        syntax.literal(text.strip().rstrip(".,;"))
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return False
    return True


def visible_tests(prompt: str, kept: list[Example]) -> str:
    """The examples as test source, one named test each: `test_example_1`, ..."""
    header = _prelude(prompt, None)
    tests = [f"def test_example_{n}():\n    assert {e.expression} == {e.expected}\n" for n, e in enumerate(kept, 1)]
    return "\n\n".join([header, *tests]) if tests else ""


def held_out_tests(prompt: str, test: str, function: str) -> tuple[str, int]:
    """`check` as named tests (`test_check_1`, ... one per assert), and how many; a `check` that is not only
    asserts stays one test, `test_check`. The prompt's imports and helpers come first, so the tests use their own
    copy of a helper (`poly` of HumanEval/32), never one the solution defines."""
    module = syntax.parse(test)
    check = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check")
    around = "\n".join(ast.unparse(n) for n in module.body if n is not check)
    body = [s for s in check.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    parts = [_prelude(prompt, function), around] if around else [_prelude(prompt, function)]
    if all(isinstance(s, ast.Assert) for s in body):
        asserts = [s for s in body if not (isinstance(s.test, ast.Constant) and s.test.value)]  # `assert True`
        for n, statement in enumerate(asserts, 1):
            parts.append(f"def test_check_{n}():\n    candidate = {function}\n    {ast.unparse(statement)}\n")
        return "\n\n".join(parts), len(asserts)
    whole = "\n".join("    " + line for s in body for line in ast.unparse(s).splitlines())
    parts.append(f"def test_check():\n    candidate = {function}\n{whole}\n")
    return "\n\n".join(parts), 1


def _prelude(prompt: str, function: str | None) -> str:
    """The prompt's imports, and (for held-out tests) its helper functions: all of it but the function asked for."""
    kept = []
    for node in syntax.parse(prompt).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            kept.append(ast.unparse(node))
        elif function and isinstance(node, ast.FunctionDef) and node.name != function:
            kept.append(ast.unparse(node))
    return "\n\n\n".join(["import pytest", *kept]) + "\n"
