"""Escape the process group: a child in its own session execs a fresh interpreter that ignores signals."""
EXPECT = {"category": "left-behind processes", "serial": True}
CTX = {}

import os
import sys
import time
from _mark import _mark


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
