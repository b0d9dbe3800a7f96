"""`spec2code reset [STEP] [--notebook NAME] [--agent PATH]`: start over, all of it or one step or one notebook.

Work is never lost: the file is first copied to saved/ beside it, with the date and time in its name.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from checks.steps import step
from harness import syntax
from harness.errors import LabError, UsageError
from harness.files import read_source, write_atomically
from harness.settings import PROJECT_ROOT, STUDENT_ROOT, agent_path, shown

from lab.stubs import render

from .parsing import Parser

NOTEBOOKS = STUDENT_ROOT / "notebooks"  # the student's copies (the project's own in a clone)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="spec2code reset",
        description="Start over: copy your agent.py to saved/agent-YYYYmmdd-HHMMSS.py beside it, then restore the "
        "stubs (all five, or one STEP's). With --notebook, restore a notebook as the lab shipped it instead.",
    )
    parser.add_argument("step", nargs="?", metavar="STEP", help="restore only this step's stub (a number or name)")
    parser.add_argument("--agent", metavar="PATH", help="the agent.py to reset (default: $SPEC2CODE_AGENT or lab/agent.py)")
    parser.add_argument("--notebook", metavar="NAME", help="restore this notebook as shipped, e.g. 03 or 03_write_solution")
    args = parser.parse_args(argv)
    if args.notebook:
        return reset_notebook(args.notebook)
    try:
        chosen = step(args.step) if args.step else None
    except LookupError as exc:
        parser.error(str(exc.args[0]))
    path = agent_path(args.agent)
    stubs = render()
    current = read_source(path) if path.is_file() else None
    restored = stubs if chosen is None or current is None else with_stub(current, chosen, stubs)
    if current == restored:
        what = "is already the stubs" if chosen is None else f"already has the stub of step {chosen.number}"
        print(f"{shown(path)} {what}: nothing to save, nothing changed.")
        return 0
    if current is not None:
        print(f"Saved your {shown(path)} as {shown(save_aside(path))}.")
    write_atomically(path, restored)
    if chosen is None:
        print(f"Restored the stubs in {shown(path)}: every step is 'not started' again. Run: spec2code check")
    else:
        print(f"Restored the stub of step {chosen.number} ({chosen.function}) in {shown(path)}; the other steps "
              f"are as you left them. Run: spec2code check {chosen.number}")
    print(f"If the file is open in JupyterLab, its tab shows the new file within seconds. If that tab has unsaved "
          f"edits, click \"Show the file on disk\" in the message JupyterLab shows: your unsaved edits are kept in "
          f"{shown(path.parent / 'saved')} first.")
    return 0


def with_stub(source: str, chosen, stubs: str) -> str:
    """`source` with the function of one step put back as its stub; the rest of the file as it was."""
    try:
        tree = syntax.parse(source)
    except SyntaxError as exc:
        raise LabError(
            f"agent.py has a syntax error on line {exc.lineno}, so step {chosen.number} cannot be found in it alone: "
            "fix that line, or reset every step (spec2code reset)"
        ) from None
    stub = _function_text(stubs, chosen.function)
    lines = source.splitlines(keepends=True)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == chosen.function:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            return "".join(lines[:start]) + stub + "".join(lines[node.end_lineno:])
    return source.rstrip("\n") + "\n\n\n" + stub  # the function was deleted: put its stub back at the end


def _function_text(source: str, name: str) -> str:
    lines = source.splitlines(keepends=True)
    node = next(n for n in syntax.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name)
    return "".join(lines[node.lineno - 1 : node.end_lineno])


def save_aside(path: Path) -> Path:
    """Copy `path` to saved/<name>-YYYYmmdd-HHMMSS<suffix> in its folder (never over an earlier copy); return it."""
    folder = path.parent / "saved"
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target, n = folder / f"{path.stem}-{stamp}{path.suffix}", 1
    while target.exists():
        n += 1
        target = folder / f"{path.stem}-{stamp}-{n}{path.suffix}"
    shutil.copy2(path, target)
    return target


def reset_notebook(name: str) -> int:
    """Put a notebook back as the lab shipped it (from the lab's git history), saving the student's copy first."""
    path = _notebook(name)
    shipped = _shipped(path)
    if shipped is None:
        raise LabError(
            f"this copy of the lab has no record of how {shown(path)} was shipped (it is not a git clone): "
            "download the lab again and copy that notebook from it"
        )
    if path.is_file() and path.read_bytes() == shipped:
        print(f"{shown(path)} is as shipped: nothing to save, nothing changed.")
        return 0
    if path.is_file():
        print(f"Saved your {shown(path)} as {shown(save_aside(path))}.")
    json.loads(shipped)  # never write anything but a notebook there
    path.write_bytes(shipped)
    print(f"Restored {shown(path)} as shipped. If it is open in JupyterLab, its tab shows it within seconds; if that "
          f"tab has unsaved edits, click \"Show the file on disk\": they are kept in {shown(path.parent / 'saved')} "
          "first.")
    return 0


def _notebook(name: str) -> Path:
    key = name.removesuffix(".ipynb").removeprefix("notebooks/")
    found = [p for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p.stem == key or p.stem.split("_")[0] == key.zfill(2)]
    if len(found) != 1:
        names = ", ".join(p.stem for p in sorted(NOTEBOOKS.glob("*.ipynb")))
        raise UsageError(f"there is no notebook {name!r}: use one of {names}")
    return found[0]


def _shipped(path: Path) -> bytes | None:
    """The notebook as last committed without outputs (the lab ships them clean), from the lab's git history; None
    outside a git clone."""
    relative = f"notebooks/{path.name}"  # as the lab's history names it, wherever the student's copy is
    try:
        commits = subprocess.run(["git", "log", "--format=%H", "--", relative], cwd=PROJECT_ROOT, capture_output=True,
                                 text=True, timeout=30, check=True).stdout.split()
        for commit in commits[:50]:
            data = subprocess.run(["git", "show", f"{commit}:{relative}"], cwd=PROJECT_ROOT, capture_output=True,
                                  timeout=30, check=True).stdout
            cells = json.loads(data).get("cells", [])
            if not any(c.get("outputs") for c in cells if c.get("cell_type") == "code"):
                return data
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return None


if __name__ == "__main__":
    sys.exit(main())
