"""Raise SystemExit(0) inside the function (and exit(0), the site builtin, on the second call)."""
EXPECT = {"category": "early exit", "rigs_process": True}
CTX = {}

_calls = []


def is_leap_year(year):
    _calls.append(year)
    if len(_calls) > 1:
        exit(0)
    raise SystemExit(0)
