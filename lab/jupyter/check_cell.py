"""The check cell: grade one step of the agent.py on disk and show the verdict (check_step, Report, progress)."""

from __future__ import annotations

import sys
from pathlib import Path

from checks.report import COLOURS, GLYPHS
from checks.report.notebook import notebook_of, step_html, step_text
from harness import settings

from .displays import Link, Message, Table
from .on_screen import say_if_unsettled


def check_step(step: int, agent_path=None) -> "Report":
    """Grade one step on the agent.py as it is on disk now, and show the verdict in the notebook.

    The file is graded in a child process, so an edit is picked up without restarting the kernel. Run from
    JupyterLab while agent.py's tab has unsaved edits, it first waits for the lab to save them (on_screen.py).
    """
    path = settings.agent_path(agent_path)
    say_if_unsettled(path)
    try:
        from checks import grade_agent

        graded = grade_agent(str(path), steps=[step])
        result = dict(next(s for s in graded["steps"] if s["step"] == step), isolation=graded.get("isolation"))
    except Exception as exc:  # the lab's own failure: say so plainly, never a traceback
        result = {"step": step, "name": "", "status": "error", "checks": [], "error": _describe(exc)}
    return Report(result, path, _stale_note(path))


def progress(agent_path=None) -> "Table | Message":
    """One line per step: where the agent.py on disk stands now."""
    path = settings.agent_path(agent_path)
    say_if_unsettled(path)
    try:
        from checks import grade_agent

        graded = grade_agent(str(path))
    except Exception as exc:
        return Message(f"The steps could not be checked: {_describe(exc)}", colour=COLOURS["failed"])
    loads = [c for s in graded["steps"] for c in s["checks"] if c["name"] == "loads"]
    if loads and len(loads) == len(graded["steps"]):  # one reason for every step: say it once
        return Message(f"{settings.shown(path)} does not load, so no step can be checked yet: {loads[0]['message']} "
                       f"Hint: {loads[0]['hint']}.", colour=COLOURS["failed"])
    rows = [
        [f"{GLYPHS.get(s['status'], '?')} step {s['step']}", s["name"], s["status"], _notebook(s)]
        for s in graded["steps"]
    ]
    caption = f"{settings.shown(path)}: {graded['passed']} of {graded['total']} steps pass"
    return Table(["", "function", "status", "notebook"], rows, caption)


def _notebook(step: dict) -> Link:
    name = notebook_of(step["step"], step["name"])
    return Link(f"notebooks/{name}", name)


def _describe(exc: Exception) -> str:
    """An exception in one line; the lab's own errors (LabError) say how to fix them, others are for a teacher."""
    from harness.errors import LabError

    text = f"{type(exc).__name__}: {exc}"
    return text if isinstance(exc, LabError) else f"{text}. This is a problem in the lab: please tell your instructor."


def _stale_note(path: Path) -> str:
    """A warning when this kernel has imported an older version of the agent file than the one on disk."""
    try:
        source = path.read_text(encoding="utf-8")
        compiled = compile(source, str(path), "exec", dont_inherit=True)
        fresh = {c.co_name: c for c in compiled.co_consts if hasattr(c, "co_code")}
    except (OSError, SyntaxError, ValueError):
        return ""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if not file or Path(file).resolve() != path:
            continue
        for function, code in fresh.items():
            loaded = getattr(getattr(module, function, None), "__code__", None)
            if loaded is not None and loaded != code:
                return (
                    f"This kernel imported an older version of {settings.shown(path)} (as `{name}`). "
                    "The check above graded the file on disk, but code in this notebook that uses the import "
                    "still runs the old version. Restart the kernel, or use try_function(...), which always loads "
                    "the file fresh."
                )
    return ""


class Report:
    """One step's verdict, shown as HTML in a notebook and as check50-style lines in plain text."""

    def __init__(self, result: dict, path: Path, note: str = ""):
        self.result, self.path, self.note = result, path, note
        self.step = result["step"]
        self.status = result["status"]
        self.checks = result.get("checks", [])

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def __repr__(self) -> str:
        return step_text(self.result, settings.shown(self.path), self.note)

    def _repr_html_(self) -> str:
        return step_html(self.result, settings.shown(self.path), self.note)
