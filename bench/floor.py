"""The floor under one sandbox run on this machine: the system calls a run cannot do without, each timed alone.

A run needs at least a fork, its namespaces, a cgroup with limits and a process in it, and a process that calls the
solution and checks what it returns. Each is measured here as the median of `rounds`, so that `make bench` can
compare one run with their sum, measured in the same run of the bench.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from harness.sandbox import cgroups, linux  # noqa: E402

NAMESPACES = linux.CLONE_NEWUSER | linux.CLONE_NEWPID | linux.CLONE_NEWNS | linux.CLONE_NEWIPC | linux.CLONE_NEWNET


def _fork(child) -> None:
    """Fork, call `child()` in the fork, wait for it; the fork's exit status must be 0."""
    pid = os.fork()
    if pid == 0:
        try:
            child()
            os._exit(0)
        except BaseException:  # noqa: BLE001
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    if status:
        raise RuntimeError(f"a step of the floor failed (status {status})")


def fork_and_exit() -> None:
    _fork(lambda: None)


def namespaces() -> None:
    """A process in new user, PID, mount, IPC and network namespaces (the PID namespace needs a first process)."""
    def inside():
        linux.unshare(NAMESPACES)
        _fork(lambda: None)
    _fork(inside)


def cgroup_with_a_process(machine_cgroups) -> None:
    """A cgroup with the run's limits written, a process that joins it, and the group removed."""
    paths = machine_cgroups.create(f"spec2code-floor-{os.getpid()}")
    try:
        _fork(lambda: cgroups.join(paths))
    finally:
        cgroups.remove(paths)


def six_asserts() -> None:
    """A forked process checks six answers of a leap-year function, the work of the visible tests without pytest."""
    def check():
        def is_leap_year(year):
            return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        for year, leap in ((2024, True), (2023, False), (1900, False), (2000, True), (2100, False), (1600, True)):
            assert is_leap_year(year) is leap
    _fork(check)


def measure(rounds: int = 50) -> dict:
    """{step: median seconds} for each step this machine allows, "floor" their sum; "missing" names steps it did not."""
    machine_cgroups, why = cgroups.detect(f"spec2code-floor-probe-{os.getpid()}")
    steps = {"fork + exit": fork_and_exit, "namespaces (user, PID, mount, IPC, network)": namespaces,
             "cgroup with limits and a process": lambda: cgroup_with_a_process(machine_cgroups),
             "six asserts in a forked process": six_asserts}
    figures, missing = {}, {}
    for name, step in steps.items():
        if name.startswith("cgroup") and machine_cgroups is None:
            missing[name] = why
            continue
        try:
            step()
        except (OSError, RuntimeError) as e:
            missing[name] = str(e)
            continue
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            step()
            times.append(time.perf_counter() - start)
        figures[name] = statistics.median(times)
    return {"steps": figures, "floor": sum(figures.values()), "missing": missing}


if __name__ == "__main__":
    found = measure()
    for name, seconds in found["steps"].items():
        print(f"{name:<46}{seconds * 1000:>8.2f} ms")
    for name, why in found["missing"].items():
        print(f"{name:<46}  not here: {why}")
    print(f"{'floor':<46}{found['floor'] * 1000:>8.2f} ms")
