"""SIGSTOP the parent process (freeze whatever runs the solution), unless it is the test process itself."""
EXPECT = {"category": "signalling the parent", "serial": True, "needs": ["signals"]}
CTX = {}

import os
import signal

ppid = os.getppid()
if ppid > 1 and ppid not in CTX.get("protect", []):
    try:
        os.kill(ppid, signal.SIGSTOP)
    except OSError:
        pass


def is_leap_year(year):
    ppid = os.getppid()
    if ppid > 1 and ppid not in CTX.get("protect", []):
        try:
            os.kill(ppid, signal.SIGSTOP)
        except OSError:
            pass
    return True
