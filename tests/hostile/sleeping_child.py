"""Leave a child behind that ignores SIGTERM/SIGHUP and sleeps for a minute."""
EXPECT = {"category": "left-behind processes", "serial": True}
CTX = {}

import os
import signal
import time
from _mark import _mark


if os.fork() == 0:
    _mark()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    time.sleep(60)
    os._exit(0)


def is_leap_year(year):
    return True
