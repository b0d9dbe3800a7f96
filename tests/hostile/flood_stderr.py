"""Flood stderr (one giant line, no newline) at import and per call, then answer wrongly."""
EXPECT = {"category": "output flood", "flood": True}
CTX = {}

import os
import time

CHUNK = b"E" * (1 << 20)


def _flood(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.write(2, CHUNK)
        except OSError:
            break


_flood(1.0)


def is_leap_year(year):
    _flood(1.0)
    return True
