"""The sandbox: `run(solution, tests)` tests model-written code behind walls and returns plain data.

caller.py is the side the lab calls; server.py, tests_side.py, solution_side.py, proxy.py, wire.py and walls.py
run in the sandbox's own processes, which never import the `harness` package (it holds the held-out tests).
"""

from .caller import isolation_lacks, isolation_level, isolation_summary, run

__all__ = ["isolation_lacks", "isolation_level", "isolation_summary", "run"]
