"""Control: a correct solution built on the standard library (calendar, datetime, numbers, functools)."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}

import calendar
import datetime
import functools
import numbers


@functools.lru_cache(maxsize=None)
def _isleap(year):
    answer = calendar.isleap(year)
    if year <= datetime.MAXYEAR:
        try:
            datetime.date(year, 2, 29)
            assert answer
        except ValueError:
            assert not answer
    return answer


def is_leap_year(year):
    if isinstance(year, bool) or not isinstance(year, numbers.Integral) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    return _isleap(year)
