"""`spec2code check [STEP ...] [--agent PATH] [--format text|json]`: grade an agent.py and show each check."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .engine import BLOCKED, FAILED, NOT_STARTED, PASSED, grade_agent
from .steps import STEPS, step

MARKS = {PASSED: ":)", FAILED: ":(", NOT_STARTED: ":|", BLOCKED: ":|"}
COLOURS = {PASSED: "32", FAILED: "31", NOT_STARTED: "33", BLOCKED: "33"}  # ANSI: green, red, yellow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spec2code check",
        description="Grade the steps of an agent.py: :) passed, :( failed (with a hint), :| not started or blocked.",
        epilog="Steps: " + ", ".join(f"{s.number} {s.function}" for s in STEPS) + ". Exit status 0 only when every "
        "step asked for passes.",
    )
    parser.add_argument("steps", nargs="*", metavar="STEP", help="step numbers or function names (default: all)")
    parser.add_argument("--agent", metavar="PATH", help="the agent.py to grade (default: $SPEC2CODE_AGENT or lab/agent.py)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for tools")
    args = parser.parse_args(argv)
    try:
        for key in args.steps:
            step(key)
    except LookupError as exc:
        parser.error(str(exc.args[0]))
    try:
        report = grade_agent(args.agent, args.steps or None)
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return 130
    if args.format == "json":
        print(json.dumps(report, indent=2))
    else:
        print(render_text(report, colour=_wants_colour()))
    return 0 if report["passed"] == report["total"] else 1


def render_text(report: dict, *, colour: bool = False) -> str:
    """The report as check50-style lines: one per check, message and hint indented below a failure."""

    def mark(status: str) -> str:
        text = MARKS[status]
        return f"\033[{COLOURS[status]}m{text}\033[0m" if colour else text

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


def _wants_colour() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


if __name__ == "__main__":
    sys.exit(main())
