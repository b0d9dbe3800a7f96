"""Block forever reading stdin (and an own pipe, if stdin is closed)."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "endless": True}
CTX = {}

import os


def is_leap_year(year):
    try:
        while os.read(0, 1):
            pass
    except OSError:
        pass
    r, w = os.pipe()
    os.read(r, 1)
