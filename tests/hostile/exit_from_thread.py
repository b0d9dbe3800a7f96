"""A thread started at import exits the whole process with status 0 once the tests are under way."""
EXPECT = {"category": "early exit", "rigs_process": True}
CTX = {}

import os
import threading
import time


def _bail():
    time.sleep(0.05)
    os._exit(0)


threading.Thread(target=_bail, daemon=True).start()


def is_leap_year(year):
    time.sleep(0.1)  # make sure the exit happens while a call is in flight
    return True
