"""Small helpers several test files share."""

import textwrap
from pathlib import Path


def write_agent(folder: Path, source: str, name: str = "agent.py") -> Path:
    """An agent file in `folder` holding `source` (dedented), as a learner would save it."""
    path = Path(folder) / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path
