"""Escape the process group: a child in its own session execs a fresh interpreter that ignores signals."""
EXPECT = {"category": "left-behind processes", "serial": True}
CTX = {}

import os
import sys
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


CODE = (
    "import signal, time\n"
    "for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "time.sleep(60)\n"
)

if os.fork() == 0:
    os.setsid()
    _mark()
    try:
        os.execv(sys.executable, [sys.executable, "-c", CODE, CTX.get("tag", "hostile")])
    except OSError:
        time.sleep(60)
    os._exit(0)


def is_leap_year(year):
    return True
