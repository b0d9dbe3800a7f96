"""Fail with enormous messages: a 10 MB ValueError, and a 10 MB unicode-heavy string as the answer."""
EXPECT = {"category": "output flood", "flood": True}
CTX = {}

_calls = []


def is_leap_year(year):
    _calls.append(year)
    if len(_calls) % 2:
        raise ValueError("boom " * 2_000_000)
    return "\u2603\n" * 5_000_000
