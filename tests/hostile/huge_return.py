"""Return a 100 MB string (and, on other calls, a 10-million-item list) as the answer."""
EXPECT = {"category": "output flood", "flood": True}
CTX = {}

_calls = []


def is_leap_year(year):
    _calls.append(year)
    if len(_calls) % 2:
        return "x" * 10**8
    return list(range(10**7))
