"""The check cell: grade one step of the agent.py on disk and show the verdict (check_step, Report, progress)."""

from __future__ import annotations

import html
import sys
from pathlib import Path

from harness import settings

from .displays import COLOURS, MARKS, TEXT_MARKS, Message, Table, code_spans, cut


def check_step(step: int, agent_path=None) -> "Report":
    """Grade one step on the agent.py as it is on disk now, and show the verdict in the notebook.

    The file is graded in a child process, so an edit is picked up without restarting the kernel.
    """
    path = settings.agent_path(agent_path)
    try:
        from checks import grade_agent

        graded = grade_agent(str(path), steps=[step])
        result = next(s for s in graded["steps"] if s["step"] == step)
    except Exception as exc:  # the lab's own failure: say so plainly, never a traceback
        result = {"step": step, "name": "", "status": "error", "checks": [], "error": _describe(exc)}
    return Report(result, path, _stale_note(path))


def progress(agent_path=None) -> "Table | Message":
    """One line per step: where the agent.py on disk stands now."""
    path = settings.agent_path(agent_path)
    try:
        from checks import grade_agent

        graded = grade_agent(str(path))
    except Exception as exc:
        return Message(f"The steps could not be checked: {_describe(exc)}", colour=COLOURS["failed"])
    rows = [
        [f"{MARKS.get(s['status'], '?')} step {s['step']}", s["name"], s["status"], _next_word(s)]
        for s in graded["steps"]
    ]
    caption = f"{settings.shown(path)}: {graded['passed']} of {graded['total']} steps pass"
    return Table(["", "function", "status", "notebook"], rows, caption)


def _next_word(step: dict) -> str:
    return f"notebooks/{step['step']:02d}_{step['name']}.ipynb"


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

    def _title(self) -> str:
        name, title = self.result.get("name", ""), self.result.get("title", "")
        return f"Step {self.step} · {name}" + (f" ({title})" if title else "")

    def _headline(self) -> str:
        done = sum(c["status"] == "passed" for c in self.checks)
        where = settings.shown(self.path)
        if self.status == "passed":
            return f"passed: all {len(self.checks)} checks pass. On to the next step!"
        if self.status == "failed":
            return f"failed: {done} of {len(self.checks)} checks pass. Fix {where}, save it, and run this cell again."
        if self.status == "not started":
            name = self.result.get("name") or "the function"
            return f"not started: `{name}` in {where} still raises NotImplementedError. Write it, save, run this again."
        if self.status == "blocked":
            why = next((c.get("message") for c in self.checks if c.get("message")), "")
            return f"blocked: {why or 'an earlier step must pass first.'}"
        return f"could not be checked: {self.result.get('error', 'unknown problem')}"

    def _shown_checks(self) -> list[dict]:
        """The checks worth listing: all of them, unless the step is not started or blocked (then they wait)."""
        return [] if self.status in ("not started", "blocked") else self.checks

    def __repr__(self) -> str:
        lines = [f"{self._title()}: {self._headline()}"]
        for check in self._shown_checks():
            lines.append(f"  {TEXT_MARKS.get(check['status'], ':|')} {check['description']}")
            if check["status"] == "failed":
                lines += [f"      {line}" for line in cut(check.get("message") or "").splitlines()]
                if check.get("hint"):
                    lines.append(f"      hint: {check['hint']}")
        if self.status in ("not started", "blocked") and self.checks:
            lines.append("  What the check looks for:")
            lines += [f"    - {c['description']}" for c in self.checks]
        if self.note:
            lines.append(f"  Note: {self.note}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        colour = COLOURS.get(self.status, "#cf222e")
        mark = MARKS.get(self.status, "✘")
        esc = html.escape
        parts = [
            f'<div class="spec2code-check" data-step="{self.step}" data-status="{esc(self.status)}" '
            f'style="border-left: 6px solid {colour}; padding: 6px 12px; margin: 4px 0; font-family: sans-serif">',
            f'<div style="font-weight: bold; color: {colour}">{mark} {esc(self._title())}: '
            f"{code_spans(self._headline())}</div>",
        ]
        shown = self._shown_checks()
        if shown:
            parts.append('<ul style="list-style: none; padding-left: 0.5em; margin: 6px 0">')
            for check in shown:
                c = COLOURS.get(check["status"], "#6e7781")
                parts.append(
                    f'<li style="margin: 3px 0"><span style="color: {c}">{MARKS.get(check["status"], "○")}</span> '
                    f"{esc(check['description'])}"
                )
                if check["status"] == "failed":
                    if check.get("message"):
                        parts.append(
                            '<pre style="margin: 4px 0 2px 1.5em; padding: 4px 8px; background: #f6f8fa; '
                            f'white-space: pre-wrap">{esc(cut(check["message"]))}</pre>'
                        )
                    if check.get("hint"):
                        parts.append(f'<div style="margin-left: 1.5em"><b>Hint:</b> <i>{esc(check["hint"])}</i></div>')
                parts.append("</li>")
            parts.append("</ul>")
        elif self.checks:
            items = "".join(f"<li>{esc(c['description'])}</li>" for c in self.checks)
            parts.append(f"<details><summary>What the check looks for</summary><ul>{items}</ul></details>")
        if self.note:
            parts.append(f'<div style="color: #9a6700; margin-top: 6px"><b>Note:</b> {code_spans(self.note)}</div>')
        parts.append("</div>")
        return "".join(parts)
