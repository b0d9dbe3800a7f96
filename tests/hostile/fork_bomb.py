"""Fork a bounded bomb (at most 1000 sleeping processes, from a child) and answer wrongly."""
EXPECT = {"category": "process flood", "serial": True}
CTX = {}

import os
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


def _bomb():
    _mark()
    for _ in range(1000):
        try:
            if os.fork() == 0:
                time.sleep(20)
                os._exit(0)
        except OSError:
            break
    time.sleep(20)
    os._exit(0)


_started = []


def is_leap_year(year):
    if not _started:
        _started.append(1)
        try:
            if os.fork() == 0:
                _bomb()
        except OSError:
            pass
    return True
