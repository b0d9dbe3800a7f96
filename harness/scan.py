"""A static scan of a solution for what a reviewer should read: special cases, early exits, inspection."""

# Warnings, not verdicts: the visible tests' inputs special-cased, early exits, and inspection of frames, the garbage
# collector, files or the test framework.

from __future__ import annotations

import ast

from . import syntax

TEST_LITERALS, EARLY_EXIT, INSPECTION = "test literals", "early exit", "inspection"

_EXITS = {"exit", "quit", "sys.exit", "os._exit", "os.abort", "os.kill", "os.killpg", "signal.raise_signal"}
_EXIT_EXCEPTIONS = {"SystemExit", "KeyboardInterrupt", "GeneratorExit"}
_INSPECTING_CALLS = {"sys._getframe", "open", "io.open", "os.open", "os.listdir", "os.scandir", "os.walk",
                     "pathlib.Path", "Path", "glob.glob", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
                     "globals", "vars", "__import__", "importlib.import_module"}
_INSPECTING_ATTRIBUTES = {"f_back", "f_locals", "f_globals", "f_code", "tb_frame", "gi_frame", "cr_frame",
                          "__traceback__", "__globals__", "__builtins__", "__subclasses__", "__file__"}
_INSPECTING_MODULES = {"inspect", "gc", "traceback", "pytest", "_pytest", "builtins", "ctypes", "pathlib", "glob",
                       "importlib"}


def scan(solution_src: str, tests_src: str = "") -> list[dict]:
    """Warnings about a solution: [{"kind", "line", "says"}], in line order; [] when nothing stands out.

    kinds: "test literals" (it compares with, or looks up, inputs the visible tests use), "early exit" (exit(),
    os._exit, raise SystemExit, ...), "inspection" (frames, gc, files, the test framework, the builtins).
    """
    try:
        tree = syntax.parse(solution_src)
    except (SyntaxError, ValueError):
        return []
    inputs = inputs_of(tests_src, _public_functions(tree))
    flags = _literal_flags(tree, inputs) + _behaviour_flags(tree)
    unique = {(f["line"], f["kind"], f["says"]): f for f in flags}
    return [unique[k] for k in sorted(unique)]


def inputs_of(tests_src: str, functions: set[str] | None = None) -> dict[str, object]:
    """The literal values the tests pass to the solution's functions: {key: value}, trivial values left out.

    Arguments of calls to those functions, the items of a literal a test loops over while calling them, and
    the values of `pytest.mark.parametrize`."""
    try:
        tree = syntax.parse(tests_src)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in (functions or set()):
            args = [_literal(a) for a in node.args]
            for value in args:
                _add(found, value)
            if len(args) > 1 and all(a is not _NOT_LITERAL for a in args):
                _add(found, tuple(args))
        elif isinstance(node, ast.For) and _calls_any(node, functions or set()):
            _add_items(found, _literal(node.iter))
        elif isinstance(node, ast.Call) and _name(node.func).endswith("parametrize") and len(node.args) > 1:
            for item in _items(_literal(node.args[1])):
                _add(found, item)
                _add_items(found, item)
    return found


# --- the tests' inputs, special-cased --------------------------------------------------------------------------


def _literal_flags(tree: ast.AST, inputs: dict) -> list[dict]:
    if not inputs:
        return []
    bound = {}  # names bound to a literal: known = {400: "CD", ...}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _literal(node.value)
            if value is not _NOT_LITERAL:
                bound[node.targets[0].id] = value
    flags = []
    for node in ast.walk(tree):
        values = []
        if isinstance(node, ast.Compare) and all(
            isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in node.ops
        ):
            for side in [node.left, *node.comparators]:
                value = bound.get(side.id, _NOT_LITERAL) if isinstance(side, ast.Name) else _literal(side)
                values += [value, *(_items(value) if isinstance(node.ops[0], (ast.In, ast.NotIn)) else [])]
        elif isinstance(node, ast.Dict):
            values += [_literal(k) for k in node.keys if k is not None]
        hits = [inputs[_key(v)] for v in values if v is not _NOT_LITERAL and _key(v) in inputs]
        if hits:
            shown = ", ".join(dict.fromkeys(_short(v) for v in hits))
            flags.append(_flag(TEST_LITERALS, node, f"special-cases inputs of the visible tests: {shown}"))
    return flags


_NOT_LITERAL = object()


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _items(value) -> list:
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return []


def _add_items(found: dict, value) -> None:
    for item in _items(value):
        _add(found, item)


def _add(found: dict, value) -> None:
    if value is not _NOT_LITERAL and not _trivial(value):
        found.setdefault(_key(value), value)


def _trivial(value) -> bool:
    """Values too common to say anything: None, bools, small numbers, one character, empty containers."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        return abs(value) <= 2
    if isinstance(value, (str, bytes)):
        return len(value) <= 1
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return len(value) == 0
    return False


def _key(value) -> str:
    """One spelling for equal literals: lists and tuples alike, sets sorted, types kept apart (1 is not 1.0)."""
    def norm(v):
        if isinstance(v, (list, tuple)):
            return ("seq", tuple(norm(x) for x in v))
        if isinstance(v, (set, frozenset)):
            return ("set", tuple(sorted((norm(x) for x in v), key=repr)))
        if isinstance(v, dict):
            return ("dict", tuple(sorted(((norm(k), norm(x)) for k, x in v.items()), key=repr)))
        return (type(v).__name__, v)

    return repr(norm(value))


def _short(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _public_functions(tree: ast.AST) -> set[str]:
    return {n.name for n in getattr(tree, "body", []) if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}


def _calls_any(node: ast.AST, functions: set[str]) -> bool:
    return any(isinstance(n, ast.Call) and _name(n.func) in functions for n in ast.walk(node))


# --- behaviour a reviewer should look at -------------------------------------------------------------------------


def _behaviour_flags(tree: ast.AST) -> list[dict]:
    flags = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in _EXITS:
                flags.append(_flag(EARLY_EXIT, node, f"calls {name}(): the process may end before the tests finish"))
            elif name in _INSPECTING_CALLS or name.split(".")[0] in ("inspect", "gc"):
                flags.append(_flag(INSPECTION, node, f"calls {name}(): it may look at the tests or their files"))
        elif isinstance(node, ast.Raise) and node.exc is not None:
            name = _name(node.exc.func if isinstance(node.exc, ast.Call) else node.exc)
            if name in _EXIT_EXCEPTIONS:
                flags.append(_flag(EARLY_EXIT, node, f"raises {name}: the process may end before the tests finish"))
        elif isinstance(node, ast.Attribute) and node.attr in _INSPECTING_ATTRIBUTES:
            flags.append(_flag(INSPECTION, node, f"reads .{node.attr}: it may look at the caller's frames or files"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                if module.split(".")[0] in _INSPECTING_MODULES:
                    flags.append(_flag(INSPECTION, node, f"imports {module}: a solution has no need to"))
    return flags


def _name(node: ast.AST) -> str:
    """The dotted name of a callee or attribute: sys.exit, os._exit, open; "" for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def _flag(kind: str, node: ast.AST, says: str) -> dict:
    return {"kind": kind, "line": getattr(node, "lineno", 0), "says": says}
