"""Flood stdout with about 7 MB of fake pytest summaries per call, then answer wrongly.

A fixed amount, far over what a result may keep: the run ends on its own, so the check is that the output was cut
and says so. (flood_stderr floods until the timeout ends the run.)
"""

EXPECT = {"category": "output flood", "flood": True}
CTX = {}

import os

CHUNK = (b"8 passed " * 100 + b"\n") * 1000


def is_leap_year(year):
    for _ in range(8):
        try:
            os.write(1, CHUNK)
        except OSError:
            break
    return True
