"""`spec2code check [STEP ...] [--agent PATH] [--format text|json]`: grade an agent.py and show each check."""

from __future__ import annotations

import os
import sys

from checks.engine import grade_agent
from checks.report.formats import to_json
from checks.report.terminal import to_text
from checks.steps import STEPS, step
from harness import levels
from harness.tasks import TASKS, task

from .parsing import Parser


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="spec2code check",
        description="Grade the steps of an agent.py: :) passed, :( failed (with a hint), :| not started or blocked.",
        epilog="Steps: " + ", ".join(f"{s.number} {s.function}" for s in STEPS) + ". Exit status 0 only when every "
        "step asked for passes.",
    )
    parser.add_argument("steps", nargs="*", metavar="STEP", help="step numbers or function names (default: all)")
    parser.add_argument("--agent", metavar="PATH", help="the agent.py to grade (default: $SPEC2CODE_AGENT or lab/agent.py)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text for people, json for tools")
    parser.add_argument("--require-isolation", choices=levels.NAMES, metavar="LEVEL",
                        help=f"refuse to grade where the walls are weaker than LEVEL: {levels.LISTED} "
                        "(default: $SPEC2CODE_REQUIRE_ISOLATION)")
    parser.add_argument("--task", metavar="NAME", help="the task the checks run the lab's model on in steps 2 and 4 "
                        f"(default: leap_year; one of {', '.join(TASKS)})")
    args = parser.parse_args(argv)
    try:
        for key in args.steps:
            step(key)
    except LookupError as exc:
        parser.error(str(exc.args[0]))
    try:
        report = grade_agent(args.agent, args.steps or None, task=task(args.task) if args.task else None,
                             require=args.require_isolation)
    except KeyboardInterrupt:
        print("\nStopped.", file=sys.stderr)
        return 130
    if args.format == "json":
        sys.stdout.write(to_json(report))
    else:
        print(to_text(report, colour=_wants_colour()))
    return 0 if report["passed"] == report["total"] else 1


def _wants_colour() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


if __name__ == "__main__":
    sys.exit(main())
