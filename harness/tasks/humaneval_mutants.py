"""First-order mutants of a solution: one operator, constant or comparison changed, or one statement deleted."""

# Each mutant is the solution's source with one span replaced (the rest of the text, its docstring too, unchanged),
# so a planted bug reads as a one-place slip. Sites are numbered in the order of the tree's walk: a mutant's number
# names it for good, as long as the source is the same (the data's SHA-256 is pinned).

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from .. import syntax

_OPERATORS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
              ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult}
_COMPARISONS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
                ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BOOLEANS = {ast.And: ast.Or, ast.Or: ast.And}
_WORDS = {ast.Add: "plus", ast.Sub: "minus", ast.Mult: "times", ast.Div: "divided", ast.FloorDiv: "floor_divided",
          ast.Mod: "modulo", ast.Pow: "power", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
          ast.Eq: "eq", ast.NotEq: "ne", ast.In: "in", ast.NotIn: "not_in", ast.Is: "is", ast.IsNot: "is_not",
          ast.And: "and", ast.Or: "or"}


@dataclass(frozen=True)
class Mutant:
    """One planted change: its site number, a name that says what changed, and the source after it."""

    site: int
    name: str  # "line_4_lt_to_le"
    code: str


def mutants(source: str, first_line: int = 1) -> list[Mutant]:
    """Every first-order mutant of `source`, changing only lines from `first_line` on (the solution's body, not
    the prompt above it), in site order; a change that makes no other source is left out."""
    tree = syntax.parse(source)
    lines = source.splitlines(keepends=True)
    found: list[Mutant] = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", 0) < first_line:
            continue
        for name, replacement in _changes(node):
            code = _spliced(lines, node, replacement)
            if code != source and _parses(code):
                named = f"line_{node.lineno - first_line + 1}_{name}"
                taken = sum(1 for m in found if m.name == named or m.name.startswith(named + "_again"))
                found.append(Mutant(len(found), named + (f"_again{taken}" if taken else ""), code))
    return found


def _changes(node: ast.AST):
    """(name, replacement source) for each change of this node."""
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        new = _OPERATORS[type(node.op)]
        yield f"{_WORDS[type(node.op)]}_to_{_WORDS[new]}", _with(node, op=new())
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARISONS:
        new = _COMPARISONS[type(node.ops[0])]
        yield f"{_WORDS[type(node.ops[0])]}_to_{_WORDS[new]}", _with(node, ops=[new()])
    elif isinstance(node, ast.BoolOp):
        new = _BOOLEANS[type(node.op)]
        yield f"{_WORDS[type(node.op)]}_to_{_WORDS[new]}", _with(node, op=new())
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        yield f"{node.value}_to_{not node.value}".lower(), repr(not node.value)
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield f"{node.value}_to_{node.value + 1}".replace("-", "minus_"), repr(node.value + 1)
    elif isinstance(node, ast.Constant) and type(node.value) is str and node.value:
        yield "string_emptied", "''"
    elif isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.Pass)) and not _docstring(node):
        yield "deleted", None


def _with(node: ast.AST, **changed) -> str:
    new = copy.copy(node)
    for key, value in changed.items():
        setattr(new, key, value)
    return "(" + ast.unparse(new) + ")"


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _spliced(lines: list[str], node: ast.AST, replacement: str | None) -> str:
    """The source with the node's span replaced; a deleted statement becomes `pass` on its first line."""
    start, end = node.lineno - 1, node.end_lineno - 1
    if replacement is None:
        indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
        before, after = lines[start][: node.col_offset], lines[end][node.end_col_offset :]
        if before.strip() or after.strip(" \t\n;"):
            return "".join(lines)  # one of several statements on a line: left alone
        return "".join([*lines[:start], indent + "pass\n", *lines[end + 1 :]])
    head = _column(lines[start], node.col_offset)
    tail = _column(lines[end], node.end_col_offset)
    spliced = lines[start][:head] + replacement + lines[end][tail:]
    return "".join([*lines[:start], spliced, *lines[end + 1 :]])


def _column(line: str, offset: int) -> int:
    """The character index of a UTF-8 byte offset, as ast gives columns."""
    return len(line.encode("utf-8")[:offset].decode("utf-8", "replace"))


def _parses(code: str) -> bool:
    try:
        syntax.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True
