"""A report as `spec2code check` prints it: check50-style lines, one per check, message and hint below a failure."""

from __future__ import annotations

from ..engine import BLOCKED, FAILED, NOT_STARTED
from .marks import ANSI, MARKS


def to_text(report: dict, *, colour: bool = False) -> str:
    def mark(status: str) -> str:
        text = MARKS[status]
        return f"\033[{ANSI[status]}m{text}\033[0m" if colour else text

    walls = f" (isolation: {report['isolation']})" if report.get("isolation") else ""
    lines = [f"Checking {report['agent']}{walls}", ""]
    load = _load_failure(report)
    if load:
        lines += [f"{mark(FAILED)} {load['description']}", *_details(load), ""]
    for result in report["steps"]:
        title = f"Step {result['step']} ({result['name']}): {result['title']}"
        if load and _is_load_failure(result):
            lines.append(f"{mark(FAILED)} {title}: not checked, agent.py does not load")
            continue
        lines.append(title)
        if result["status"] == NOT_STARTED:
            lines.append(f"   {result['checks'][0]['message']}")
        if result["status"] == BLOCKED:
            lines.append(f"   {waiting(result)}")
        hints: set[str] = set()  # a hint said once in a step is not repeated under every check it applies to
        for one in result["checks"]:
            lines.append(f"  {mark(one['status'])} {one['description']}" + _would(one))
            if one["status"] == FAILED or one.get("would") == "fail":
                lines += ["  " + line for line in _details(one, hints)]
    total = report["total"]
    lines += ["", f"{report['passed']}/{total} step{'s' if total != 1 else ''} passed"]
    return "\n".join(lines)


def waiting(result: dict) -> str:
    """What a blocked step says once: what it waits for, and that its checks' verdicts below do not count yet."""
    message = result["checks"][0]["message"] if result["checks"] else "blocked"
    if any("would" in c for c in result["checks"]):
        return f"{message}; until then, what its checks find now (no credit yet):"
    return message


def _would(one: dict) -> str:
    return {"pass": " (would pass)", "fail": " (would fail)"}.get(one.get("would", ""), "")


def _details(one: dict, hints: set | None = None) -> list[str]:
    message = one.get("would_message", one["message"]) if one.get("would") else one["message"]
    hint = one.get("would_hint", "") if one.get("would") else one["hint"]
    lines = [f"     {line}" for line in message.splitlines()]
    if hint and (hints is None or hint not in hints):
        lines.append(f"     hint: {hint}")
        if hints is not None:
            hints.add(hint)
    return lines


def _is_load_failure(result: dict) -> bool:
    return len(result["checks"]) == 1 and result["checks"][0]["name"] == "loads"


def _load_failure(report: dict) -> dict | None:
    """The one 'agent.py loads' failure every step shares, shown once, or None."""
    if report["steps"] and all(_is_load_failure(r) for r in report["steps"]):
        return report["steps"][0]["checks"][0]
    return None
