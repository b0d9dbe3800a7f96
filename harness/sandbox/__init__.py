"""The sandbox: `run(solution, tests)` tests model-written code behind walls and returns plain data.

caller.py (with records.py and results.py) is the side the lab calls; every other module here runs in the sandbox's
own processes, which never import the `harness` package (it holds the held-out tests): server.py and runs.py (a
run's life), cores.py (one core for a run that calls its solution many times), tests_side.py, runner.py, pages.py,
solution_side.py, proxy.py and wire.py (the two sides and the wire between them), walls.py (the ladder of
harness/levels.py, put up) with linux.py, rootfs.py and seccomp.py (the Linux calls it is made of), reachable.py (as
root, what the runs' own users must reach: their folders, a Python they can read), and slots.py, cgroups.py and
tidy.py (giving back what a run took).
"""

from ..exports import on_first_use

__all__ = ["isolation_lacks", "isolation_level", "isolation_refused", "isolation_summary", "run", "stopped"]

# The caller's names come from caller.py on first use: an agent's process takes linux.py from here alone.
__getattr__, __dir__ = on_first_use(__name__, dict.fromkeys(__all__, "caller"))
