"""`spec2code gap`: an agent on every task, visible versus held-out pass rates, as a table and a chart image."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import settings, tasks
from lab.gap import closing_note, figure, measure, select, table
from lab.measure import MAX_ITERS, model_line, shown

from .parsing import Parser

CHART = "gap.png"  # where the chart goes, unless --chart says otherwise


def main(argv: list[str] | None = None) -> int:
    """Measure the gap on the tasks asked for and print it; exit code 0 when it was measured, 2 if it could not be."""
    args = _parser().parse_args(argv)
    chosen = select(args.bank, args.tasks)
    path = settings.agent_path(args.agent) if args.agent else settings.REFERENCE_AGENT
    backend = args.model or settings.get("SPEC2CODE_MODEL")
    print(f"Agent: {shown(path)}")
    print(f"Model: {model_line(backend)}")
    print()
    rows = measure(path, chosen, backend=backend, max_iters=args.max_iters, trail_file=args.trail, progress=True,
                   bug_score=not args.no_bug_score)
    print()
    print(table(rows))
    for row in rows:
        for line in row.review:
            print(f"Review ({row.task.name}): {line}")
    if len(rows) > 1 and any(row.task.name.startswith("HumanEval/") for row in rows):
        print()
        print(closing_note(rows))
    chart = Path(args.chart)
    figure(rows, f"{model_line(backend).split(' (')[0]} model").savefig(chart, dpi=100)
    print(f"Chart: {shown(chart.resolve())}")
    return 0


def _parser() -> Parser:
    parser = Parser(
        prog="spec2code gap",
        description="Run an agent's solve on each task, then measure its final code on the tests it saw and on the "
        "held-out tests it never saw. A model that fits its tests shows a gap.",
        epilog=settings.help_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--bank", default="lab", choices=tasks.BANKS,
                        help="the bank of tasks: the lab's six, or HumanEval's 164 (default: lab)")
    parser.add_argument("--tasks", default="all", metavar="all|NAME,...",
                        help="the tasks of the bank (default: all); a slice of HumanEval as HumanEval/0-19")
    parser.add_argument("--no-bug-score", action="store_true",
                        help="leave out the bug score (it takes a run per planted bug of each task)")
    parser.add_argument("--model", choices=settings.MODELS, help="the model (default: $SPEC2CODE_MODEL, else offline)")
    parser.add_argument("--agent", metavar="PATH", help="the agent.py (default: the reference, solutions/agent.py)")
    parser.add_argument("--chart", default=CHART, metavar="FILE", help=f"the chart image (default: {CHART})")
    parser.add_argument("--trail", metavar="FILE", help="append every ask and run to FILE (default: $SPEC2CODE_TRAIL)")
    parser.add_argument("--max-iters", type=int, default=MAX_ITERS, metavar="N",
                        help=f"attempts (default: {MAX_ITERS})")
    return parser


if __name__ == "__main__":
    sys.exit(main())
