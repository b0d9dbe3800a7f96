"""Crash the interpreter at import: null-pointer read through ctypes (os.abort if ctypes is missing)."""
EXPECT = {"category": "crash", "rigs_process": True}
CTX = {}

import os

try:
    import ctypes

    ctypes.string_at(0)
except ImportError:
    os.abort()


def is_leap_year(year):
    return True
