"""Control: a correct solution that does its arithmetic in worker threads."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}

import threading
from concurrent.futures import ThreadPoolExecutor

_pool = ThreadPoolExecutor(max_workers=3)
_lock = threading.Lock()
_calls = []


def is_leap_year(year):
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    parts = [_pool.submit(lambda d=d: year % d == 0) for d in (4, 100, 400)]
    by4, by100, by400 = (p.result() for p in parts)
    t = threading.Thread(target=lambda: _calls.append(year))
    t.start()
    t.join()
    with _lock:
        return by4 and (not by100 or by400)
