"""The sandbox: `run(solution, tests)` tests model-written code behind walls and returns plain data.

caller.py (and results.py) is the side the lab calls; every other module here runs in the sandbox's own processes,
which never import the `harness` package (it holds the held-out tests): server.py and runs.py (a run's life),
tests_side.py, runner.py, solution_side.py, proxy.py and wire.py (the two sides and the wire between them), walls.py
(the ladder of harness/levels.py, put up) with linux.py, rootfs.py and seccomp.py (the Linux calls it is made of),
reachable.py (as root, what the runs' own users must reach: their folders, a Python they can read), and slots.py,
cgroups.py and tidy.py (giving back what a run took).
"""

from . import caller
from .caller import isolation_lacks, isolation_level, isolation_refused, isolation_summary, run

__all__ = ["isolation_lacks", "isolation_level", "isolation_refused", "isolation_summary", "run", "stop"]


def stop() -> None:
    """End this process's sandbox server now, and with it every run in progress: each returns at once, as a crash
    (a later run starts a new server). For an interrupted grading, whose threads wait on the runs their agents asked
    for: without it, SIGTERM waited for each such run to time out."""
    caller._SERVER.stop()
