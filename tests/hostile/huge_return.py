"""Return a 100 MB string (and, on other calls, a 10-million-item list) as the answer.

Both values are built once, at import, and returned again and again: the attack is on the channel that carries
answers back, which must refuse them quickly, not on the run's time (building them on every call would only run into
the timeout).
"""

EXPECT = {"category": "output flood"}  # it floods the channel answers come back on, not the output
CTX = {}

_calls = []
_TEXT = "x" * 10**8
_ITEMS = [0] * 10**7


def is_leap_year(year):
    _calls.append(year)
    return _TEXT if len(_calls) % 2 else _ITEMS
