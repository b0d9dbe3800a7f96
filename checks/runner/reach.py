"""What the agent's child reads as a user of its own (the `user` level): the lab's files and the agent where they
are when every user can read them there, else a read-only copy of them in the child's own folder."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from harness.levels import USER
from harness.settings import PROJECT_ROOT

HERE = Path(__file__).resolve().parent
NEEDED = (PROJECT_ROOT / "harness" / "__init__.py", HERE / "child.py")  # and the agent file itself


def readable_by_all(path) -> bool:
    """True if any user can read `path`: the file, and every folder on the way to it."""
    path = os.path.abspath(path)
    while True:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return False
        if not mode & (stat.S_IXOTH if stat.S_ISDIR(mode) else stat.S_IROTH):
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def within_reach(level: str, agent: Path, folder: str) -> tuple[Path, Path, Path]:
    """(the project folder, child.py, the agent) as the child will read them. At the `namespaces` level they are
    bound into its own root, and at `process` it is your user; at `user` it reads them where they are, as a user of
    its own, so a lab in a private folder (a home folder, mode 700) is copied into `folder` first (about 300 kB)."""
    if level != USER or all(readable_by_all(path) for path in (*NEEDED, agent)):
        return PROJECT_ROOT, HERE / "child.py", agent
    copy = Path(folder) / "lab-copy"
    shutil.copytree(PROJECT_ROOT / "harness", copy / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    runner = copy / "checks" / "runner"
    runner.mkdir(parents=True)
    for module in HERE.glob("*.py"):
        shutil.copyfile(module, runner / module.name)
    own = Path(folder) / "agent" / agent.name
    own.parent.mkdir()
    shutil.copyfile(agent, own)
    for path, folders, files in os.walk(folder):
        os.chmod(path, 0o755)
        for name in files:
            os.chmod(os.path.join(path, name), 0o644)
    return copy, runner / "child.py", own
