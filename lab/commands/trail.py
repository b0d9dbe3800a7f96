"""`spec2code trail FILE`: an audit trail (JSON lines) printed as a timeline a reviewer can read."""

from __future__ import annotations

import sys
from pathlib import Path

from harness import settings
from harness.errors import UsageError
from harness.trail import read, timeline

from .parsing import Parser


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="spec2code trail",
        description="Print an audit trail (written by spec2code try --trail FILE, spec2code gap --trail FILE, or "
        "SPEC2CODE_TRAIL=FILE) as a timeline: each ask and run, with what a reviewer should look at.",
    )
    parser.add_argument("file", metavar="FILE", help="the trail, a file of JSON lines")
    parser.add_argument("--full", action="store_true", help="show whole prompts, replies and solutions")
    args = parser.parse_args(argv)
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"there is no trail at {args.file}: record one with spec2code try --trail {args.file}")
    events = read(path)
    if not events:
        raise UsageError(f"{args.file} holds no trail events (one JSON object per line)")
    print(f"Trail: {settings.shown(path)}")
    print(timeline(events, full=args.full))
    return 0


if __name__ == "__main__":
    sys.exit(main())
