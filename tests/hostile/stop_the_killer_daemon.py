"""Leave a daemon that SIGSTOPs every process its user may signal, in a loop: so the sandbox's killer too, the moment
it becomes that user to end it (without namespaces). Only attempted when not root."""
EXPECT = {"category": "left-behind processes", "serial": True, "needs": ["signals"]}
CTX = {}

import os
import signal
import time
from _detach import _detach
from _mark import _mark


def _daemon():
    _mark()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            os.kill(-1, signal.SIGSTOP)
        except OSError:
            pass
    os._exit(0)


if os.getuid() != 0:
    _detach(_daemon)


def is_leap_year(year):
    return True
