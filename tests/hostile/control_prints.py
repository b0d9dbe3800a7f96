"""Control: a correct solution that talks a lot on stdout and stderr, including text that looks like results."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}

import sys

print("loading solution... 0 passed, 8 failed (this is just chatter)")
print('{"event": "test", "outcome": "failed"}', file=sys.stderr)


def is_leap_year(year):
    print(f"checking {year!r}")
    print(f"debug: {year!r}", file=sys.stderr, flush=True)
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
