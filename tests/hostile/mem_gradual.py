"""Grow memory 16 MiB at a time (touched) up to 6 GiB inside the function, then hold it."""
EXPECT = {"category": "memory bomb", "serial": True}
CTX = {}

import time

_hoard = []


def is_leap_year(year):
    while len(_hoard) < 6 * 64:
        _hoard.append(b"\x01" * (16 * 2**20))
    time.sleep(10)
    return True
