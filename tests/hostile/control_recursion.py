"""Control: a correct solution that recurses (moderately) and raises the recursion limit a little."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}

import sys

sys.setrecursionlimit(5000)


def _divisible(n, d, depth=0):
    # peel off the divisor recursively, a few hundred levels at most
    if depth < 300 and n >= d * 1000:
        return _divisible(n - d * 1000, d, depth + 1)
    return n % d == 0


def is_leap_year(year):
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    return _divisible(year, 4) and (not _divisible(year, 100) or _divisible(year, 400))
