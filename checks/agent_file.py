"""Which agent.py a notebook helper uses, and its path as the learner knows it."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the project folder


def agent_path(agent_path=None) -> Path:
    """The agent.py to use: the argument, else SPEC2CODE_AGENT, else lab/agent.py (relative to the project)."""
    raw = agent_path or os.environ.get("SPEC2CODE_AGENT") or "lab/agent.py"
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = ROOT / path
    return path.resolve()


def shown(path: Path) -> str:
    """A path as the learner knows it: relative to the project when it is inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)
