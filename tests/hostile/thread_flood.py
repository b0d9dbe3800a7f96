"""Start sleeping threads until the system refuses (at most 20,000), then answer wrongly."""
EXPECT = {"category": "process flood"}
CTX = {}

import threading
import time

_threads = []


def is_leap_year(year):
    while len(_threads) < 20_000:
        t = threading.Thread(target=time.sleep, args=(30,), daemon=True)
        try:
            t.start()
        except RuntimeError:
            break
        _threads.append(t)
    return True
