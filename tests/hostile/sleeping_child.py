"""Leave a child behind that ignores SIGTERM/SIGHUP and sleeps for a minute."""
EXPECT = {"category": "left-behind processes", "serial": True}
CTX = {}

import os
import signal
import time


def _mark():
    """Name this process (and, through fork, its children) after the case, so the test can find leftovers."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(15, CTX.get("tag", "hostile").encode()[:15], 0, 0, 0)
    except Exception:
        try:
            with open("/proc/self/comm", "w") as f:
                f.write(CTX.get("tag", "hostile"))
        except OSError:
            pass


if os.fork() == 0:
    _mark()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    time.sleep(60)
    os._exit(0)


def is_leap_year(year):
    return True
