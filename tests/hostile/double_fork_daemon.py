"""Double-fork a daemon (new session, signals ignored) that writes a marker file later and sleeps on."""
EXPECT = {"category": "left-behind processes", "serial": True}
CTX = {}

import os
import signal
import sys
import time
from _detach import _detach
from _mark import _mark


def _daemon():
    _mark()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    time.sleep(2)
    tag = CTX.get("tag", "x")
    for place in (CTX.get("tmp"), CTX.get("home"), os.getcwd()):
        try:
            with open(os.path.join(place or ".", f"hostile_daemon_{tag}"), "w") as f:
                f.write("the daemon outlived the run\n")
        except OSError:
            pass
    try:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", tag])
    except OSError:
        time.sleep(60)
    os._exit(0)


_detach(_daemon)


def is_leap_year(year):
    return True
