"""Control: a correct solution that does real work at import (a lookup table for one 400-year cycle)."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}

import time

_start = time.monotonic()
_CYCLE = [(y % 4 == 0 and y % 100 != 0) or y % 400 == 0 for y in range(400)]
_LOADED_IN = time.monotonic() - _start


def is_leap_year(year):
    if type(year) is not int or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    return _CYCLE[year % 400]
