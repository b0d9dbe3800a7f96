"""One core for a run whose tests call the solution many times, so that each call across the wall is a switch there.

A test calls the solution across the wall and waits; the solution answers and waits. Left to the scheduler, the
two processes ran on different cores, and each call woke the other core from its sleep, which costs more than the
call itself (tens of microseconds each way in a virtual machine). At its MANY_CALLS-th call, the test process stays
on the core it is running on (`pin_here`: the one the scheduler gave it, with the machine's load as it is then) and
tells the solution's process, which moves there (`pin`); at its end the test process steps aside (`step_aside`), so
that the two end side by side. A run that makes fewer calls never moves: a move costs some 40 microseconds. Best
effort: where a move fails, the run goes on where it is. It imports nothing of the lab.
"""

from __future__ import annotations

import ctypes
import os

MANY_CALLS = 50  # calls of a run after which its two processes share one core


def usable() -> list[int]:
    """The cores this process may run on, where a run can be kept to one of them at all (none below two)."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no affinity on this platform
        return []
    return cores if len(cores) > 1 else []


USABLE = usable()  # found once, in the server: its runs' processes start with its affinity


def pin_here() -> int | None:
    """Keep this process on the core it is running on; the core, or None where it cannot be kept there."""
    if not USABLE:
        return None
    try:
        core = ctypes.CDLL(None).sched_getcpu()
    except Exception:  # noqa: BLE001 - called inside a test's call to the solution: nothing here may reach the test
        return None
    return pin(core)


def pin(core) -> int | None:
    """Move this process to `core`; the core, or None where there is none or the move failed."""
    if type(core) is not int or core < 0:  # sent from the other side of the wall: an int, never a bool
        return None
    try:
        os.sched_setaffinity(0, {core})
    except Exception:  # noqa: BLE001 - in a test's call, or in the solution's side before it answers: never a failure
        return None
    return core


def step_aside(core) -> None:
    """Leave `core` for the other usable cores: what ends there (the solution's process) and this process then end
    side by side, not one after the other."""
    others = set(USABLE) - {core}
    if core is None or not others:
        return
    try:
        os.sched_setaffinity(0, others)
    except Exception:  # noqa: BLE001 - best effort, after the run's last record
        pass
