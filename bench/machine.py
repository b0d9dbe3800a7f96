"""The whole machine's CPU clock, for benchmarks whose work runs in processes they do not wait for."""

from __future__ import annotations

import os


def cpu_seconds() -> float:
    """CPU seconds the whole machine has spent so far, not idle (/proc/stat): a command's own processes' times miss
    the agents' and the sandbox's processes, which outlive their parent and are reaped by init or the sandbox
    server. Anything else running counts too, so each figure is printed with the machine's load."""
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(n) for n in f.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
