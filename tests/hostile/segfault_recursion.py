"""Lift the recursion limit to a million and recurse until the C stack overflows."""
EXPECT = {"category": "crash", "timeout": 1.0}  # from 3.11 it recurses in frames of its own and times out at any limit
CTX = {}

import sys


def _down(n):
    return _down(n + 1) + 1


def is_leap_year(year):
    sys.setrecursionlimit(10**6)
    return _down(0)
