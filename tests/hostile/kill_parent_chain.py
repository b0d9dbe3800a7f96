"""SIGKILL every ancestor it can find through /proc, stopping at the test process and its ancestors."""
EXPECT = {"category": "signalling the parent", "serial": True, "needs": ["signals"]}
CTX = {}

import os
import signal

PROTECT = set(CTX.get("protect", [])) | {0, 1}


def _ppid(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


pid = os.getppid()
while pid not in PROTECT:
    parent = _ppid(pid)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    pid = parent


def is_leap_year(year):
    return True
