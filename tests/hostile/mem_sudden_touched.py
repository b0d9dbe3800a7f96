"""Allocate and touch 6 GiB in one expression at import (fits the machine, so only a limit stops it)."""
EXPECT = {"category": "memory bomb", "serial": True}
CTX = {}

HOG = b"\x01" * (6 * 2**30)


def is_leap_year(year):
    return True
