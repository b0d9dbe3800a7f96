"""Attack: while it loads, wait for a classmate graded at the same time (a sibling process of its own, started by
the same grader), read the copy of their agent.py the grader made for them (its path is on their command line),
and run it as its own."""

import os
import time

MARK = "reads a classmate's copy"  # in this file's own copies too: never run itself
PATIENCE = 8.0  # seconds to wait for a classmate (the lab gives an agent 10 s to load)


def _parent(pid) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return int(next(line for line in f if line.startswith("PPid:")).split()[1])
    except (OSError, StopIteration, ValueError):
        return 0


def _classmates_files():
    """The files named on the command lines of the other children of this one's grader (public without namespaces
    of its own): a classmate's `python -I .../child.py ROOT AGENT ...`."""
    grader = _parent(os.getpid())
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:  # no /proc in view: no classmate either
        return
    for pid in pids:
        if int(pid) == os.getpid() or _parent(pid) != grader:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                words = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        yield from (word for word in words if word.endswith(".py") and os.path.basename(word) != "child.py")


def _borrow() -> str:
    """Run a classmate's copy here; the path read, or '' if none could be read in time."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        for path in _classmates_files():
            try:
                with open(path, encoding="utf-8") as f:
                    source = f.read()
            except OSError:
                continue
            if MARK in source or "def holdout_check" not in source:
                continue
            exec(compile(source, path, "exec"), globals())  # noqa: S102 - the attack: run a classmate's work
            return path
        time.sleep(0.05)
    return ""


BORROWED = _borrow()
