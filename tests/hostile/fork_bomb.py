"""Fork a bounded bomb (at most 1000 sleeping processes, from a child) and answer wrongly."""
EXPECT = {"category": "process flood", "serial": True}
CTX = {}

import os
import time
from _mark import _mark


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
