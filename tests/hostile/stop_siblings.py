"""Find other Python processes in /proc (the test runner?) and SIGSTOP then SIGKILL them, sparing the caller."""
EXPECT = {"category": "signalling the parent", "serial": True, "needs": ["signals"]}
CTX = {}

import os
import signal

PROTECT = set(CTX.get("protect", [])) | {0, 1, os.getpid()}


def _victims():
    out = []
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return out
    for pid in pids:
        if pid in PROTECT:
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"python" in f.read():
                    out.append(pid)
        except OSError:
            pass
    return out


def is_leap_year(year):
    for pid in _victims():
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
    return True
