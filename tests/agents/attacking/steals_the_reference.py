"""Attack: find the folder of the lab that grades it (beside harness/, from the Python that runs it, from the command
lines of the grader and the processes above it, or where labs are put) and run the reference agent as its own."""

import glob
import os
import sys

import harness

NAMES = ("extract_code", "write_tests", "write_solution", "solve", "holdout_check")


def _up(path):
    """`path` and every folder above it."""
    while path not in ("", "/"):
        yield path
        path = os.path.dirname(path)


def _ancestors():
    """The process ids above this one: the grader, and whatever started it (every /proc/PID/status is public)."""
    pid = os.getpid()
    while pid > 1:
        try:
            with open(f"/proc/{pid}/status") as f:
                pid = int(next(line for line in f if line.startswith("PPid:")).split()[1])
        except (OSError, StopIteration, ValueError):
            return
        yield pid


def _folders():
    """Every folder the reference could sit in (as `FOLDER/solutions/agent.py`), the likeliest first."""
    yield from _up(os.path.dirname(os.path.abspath(harness.__file__)))
    for path in [*sys.path, sys.prefix, os.path.realpath(sys.executable)]:
        yield from _up(path)
    for pid in _ancestors():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:  # public without namespaces of its own
                words = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        for word in words:
            yield from _up(word) if word.startswith("/") else ()
    for pattern in ("/opt/*", "/srv/*", "/app", "/code", "/home/*/*", "/root/*", "/autograder/*"):
        yield from glob.glob(pattern)


def _steal() -> str:
    """Define the reference's five functions here; the path read, or '' if none could be read."""
    for folder in _folders():
        path = os.path.join(folder, "solutions", "agent.py")
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
        except OSError:
            continue
        found = {"__name__": "agent"}
        try:
            exec(compile(source, path, "exec"), found)  # noqa: S102 - the attack: run the reference as its own
        except Exception:  # noqa: BLE001
            continue
        if all(callable(found.get(name)) for name in NAMES):
            globals().update({name: found[name] for name in NAMES})
            return path
    return ""


STOLEN = _steal()
