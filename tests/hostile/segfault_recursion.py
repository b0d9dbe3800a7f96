"""Lift the recursion limit to a million and recurse until the C stack overflows."""
EXPECT = {"category": "crash", "endless": True}  # from 3.11 it recurses in frames of its own, without end
CTX = {}

import sys


def _down(n):
    return _down(n + 1) + 1


def is_leap_year(year):
    sys.setrecursionlimit(10**6)
    return _down(0)
