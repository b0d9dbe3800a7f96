"""Flood stdout with megabytes per call (for up to 2.5 s), then answer wrongly."""
EXPECT = {"category": "output flood", "flood": True}
CTX = {}

import os
import time

CHUNK = (b"8 passed " * 100 + b"\n") * 1000


def is_leap_year(year):
    end = time.monotonic() + 2.5
    while time.monotonic() < end:
        try:
            os.write(1, CHUNK)
        except OSError:
            break
    return True
