"""`spec2code compare [STEP] [--agent PATH] [--yes]`: your function, then the reference's, for when you have tried.

A step you have not started is not shown without asking first (or --yes): reading an answer before trying teaches
far less than finding it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from checks.steps import STEPS, is_stub, step
from harness import syntax
from harness.errors import LabError
from harness.files import read_source
from harness.settings import REFERENCE_AGENT, agent_path, shown

from .parsing import Parser

WARNING = (
    "This shows the reference solution. Try first! Reading an answer teaches far less than finding it.\n"
    "Stuck? `python lab/try_it.py` shows what your functions return, and `spec2code check N` says what to fix."
)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="spec2code compare",
        description="Show your function beside the reference's (solutions/agent.py), one step or all five.",
    )
    parser.add_argument("step", nargs="?", metavar="STEP", help="a step number or function name (default: all)")
    parser.add_argument("--agent", metavar="PATH", help="your agent.py (default: $SPEC2CODE_AGENT or lab/agent.py)")
    parser.add_argument("--yes", action="store_true", help="show steps you have not started without asking")
    args = parser.parse_args(argv)
    try:
        chosen = [step(args.step)] if args.step else list(STEPS)
    except LookupError as exc:
        parser.error(str(exc.args[0]))
    path = agent_path(args.agent)
    print(WARNING)
    yours, problem = functions_in(path)
    reference, _ = functions_in(REFERENCE_AGENT)
    source = _source(path)
    if problem:
        print(f"\n{problem}")
    held_back = []
    for current in chosen:
        started = problem is None and current.function in yours and not is_stub(source, current.function)
        if not started and not args.yes and not _ask_to_show(current):
            held_back.append(current)
            continue
        print(f"\n{'=' * 30} Step {current.number} ({current.function}): {current.title} {'=' * 30}")
        print(f"\n--- yours ({shown(path)}) ---\n")
        if problem:
            print(problem)
        elif current.function not in yours:
            print(f"(no function named {current.function})")
        else:
            print(yours[current.function] + ("" if started else "\n\n(still the stub: try it first!)"))
        print(f"\n--- reference ({shown(REFERENCE_AGENT)}) ---\n")
        print(reference[current.function])
    if held_back:
        steps = ", ".join(f"{s.number} ({s.function})" for s in held_back)
        print(f"\nNot shown, because you have not started them yet: step{'s' * (len(held_back) > 1)} {steps}. "
              f"Try first; `spec2code compare {held_back[0].number} --yes` shows the reference anyway.")
    return 0


def _ask_to_show(current) -> bool:
    """Ask on a terminal whether to show the reference of a step not started; anywhere else, do not."""
    if not sys.stdin.isatty():
        return False
    try:
        answer = input(f"You have not started step {current.number} ({current.function}) yet. "
                       "Show the reference anyway? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _source(path: Path) -> str:
    try:
        return read_source(path)
    except (OSError, LabError):
        return ""


def functions_in(path: Path) -> tuple[dict[str, str], str | None]:
    """Each top-level function's source, with the private helpers it uses before it; or a problem to show."""
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
        tree = syntax.parse(source)
    except OSError as exc:
        return {}, f"(cannot read {shown(path)}: {exc.strerror})"
    except SyntaxError as exc:
        return {}, f"({shown(path)} has a syntax error on line {exc.lineno}: {exc.msg})"
    lines = source.splitlines()
    helpers = {}
    for node in tree.body:
        for name in _names_defined(node):
            if name.startswith("_"):
                helpers[name] = node
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} & set(helpers)
            parts = [_segment(lines, helpers[name]) for name in sorted(used, key=lambda n: helpers[n].lineno)]
            found[node.name] = "\n\n".join(parts + [_segment(lines, node)])
    return found, None


def _names_defined(node) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    return []


def _segment(lines: list[str], node) -> str:
    """The node's lines, with the comment lines just above it, without a function's docstring (the same in both)."""
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    body = getattr(node, "body", None)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(body) > 1 and ast.get_docstring(node):
        return "\n".join(lines[start : body[0].lineno - 1] + lines[body[0].end_lineno : node.end_lineno])
    return "\n".join(lines[start : node.end_lineno])


if __name__ == "__main__":
    sys.exit(main())
