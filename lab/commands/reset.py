"""`spec2code reset [--agent PATH]`: save the agent.py aside, then put the stubs back. Work is never lost."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from harness.files import write_atomically
from harness.settings import agent_path, shown

from .stubs import render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spec2code reset",
        description="Start over: copy your agent.py to saved/agent-YYYYmmdd-HHMMSS.py beside it, then restore the stubs.",
    )
    parser.add_argument("--agent", metavar="PATH", help="the agent.py to reset (default: $SPEC2CODE_AGENT or lab/agent.py)")
    args = parser.parse_args(argv)
    path = agent_path(args.agent)
    stubs = render()
    if path.is_file():
        if path.read_text(encoding="utf-8", errors="replace") == stubs:
            print(f"{shown(path)} is already the stubs: nothing to save, nothing changed.")
            return 0
        saved = save_aside(path)
        print(f"Saved your {shown(path)} as {shown(saved)}.")
    write_atomically(path, stubs)
    print(f"Restored the stubs in {shown(path)}: every step is 'not started' again. Run: spec2code check")
    return 0


def save_aside(path: Path) -> Path:
    """Copy `path` to saved/<name>-YYYYmmdd-HHMMSS.py in its folder (never over an earlier copy); return the copy."""
    folder = path.parent / "saved"
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target, n = folder / f"{path.stem}-{stamp}.py", 1
    while target.exists():
        n += 1
        target = folder / f"{path.stem}-{stamp}-{n}.py"
    shutil.copy2(path, target)
    return target


if __name__ == "__main__":
    sys.exit(main())
