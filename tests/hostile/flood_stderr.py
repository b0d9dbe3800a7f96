"""Flood stderr (one giant line, no newline): 8 MB at import, then without end in the first call.

The timeout ends the run while the flood goes on: what the result keeps of it must still be cut and say so.
"""

EXPECT = {"category": "output flood", "flood": True, "endless": True}
CTX = {}

import os

CHUNK = b"E" * (1 << 20)


def _flood(chunks):
    for _ in range(chunks):
        try:
            os.write(2, CHUNK)
        except OSError:
            break


_flood(8)


def is_leap_year(year):
    while True:
        _flood(1)
