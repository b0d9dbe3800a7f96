"""Return a list nested a million levels deep, to blow the stack of whoever serialises it.

The value is built once, at import, and returned on every call: the attack is on the serialiser, not on the run's
time.
"""

EXPECT = {"category": "proxy injection", "rigs_process": True}
CTX = {}

_DEEP = True
for _ in range(1_000_000):
    _DEEP = [_DEEP]


def is_leap_year(year):
    return _DEEP
