"""A report as `spec2code check` prints it: check50-style lines, one per check, message and hint below a failure."""

from __future__ import annotations

from ..engine import BLOCKED, FAILED, NOT_STARTED
from .marks import ANSI, MARKS


def to_text(report: dict, *, colour: bool = False) -> str:
    def mark(status: str) -> str:
        text = MARKS[status]
        return f"\033[{ANSI[status]}m{text}\033[0m" if colour else text

    lines = [f"Checking {report['agent']}", ""]
    load = _load_failure(report)
    if load:
        lines += [f"{mark(FAILED)} {load['description']}", *_details(load), ""]
    for result in report["steps"]:
        title = f"Step {result['step']} ({result['name']}): {result['title']}"
        if load and _is_load_failure(result):
            lines.append(f"{mark(FAILED)} {title}: not checked, agent.py does not load")
            continue
        lines.append(title)
        if result["status"] in (NOT_STARTED, BLOCKED):
            lines.append(f"   {result['checks'][0]['message']}")
        for one in result["checks"]:
            lines.append(f"  {mark(one['status'])} {one['description']}")
            if one["status"] == FAILED:
                lines += ["  " + line for line in _details(one)]
    total = report["total"]
    lines += ["", f"{report['passed']}/{total} step{'s' if total != 1 else ''} passed"]
    return "\n".join(lines)


def _details(one: dict) -> list[str]:
    lines = [f"     {line}" for line in one["message"].splitlines()]
    if one["hint"]:
        lines.append(f"     hint: {one['hint']}")
    return lines


def _is_load_failure(result: dict) -> bool:
    return len(result["checks"]) == 1 and result["checks"][0]["name"] == "loads"


def _load_failure(report: dict) -> dict | None:
    """The one 'agent.py loads' failure every step shares, shown once, or None."""
    if report["steps"] and all(_is_load_failure(r) for r in report["steps"]):
        return report["steps"][0]["checks"][0]
    return None
