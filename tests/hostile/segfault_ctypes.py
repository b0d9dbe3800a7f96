"""Dereference a null pointer with ctypes inside the function."""
EXPECT = {"category": "crash"}
CTX = {}

import ctypes


def is_leap_year(year):
    return ctypes.string_at(0)
