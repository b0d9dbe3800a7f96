"""Close every inherited descriptor 0..1023 at import (the channel to the tests included)."""
EXPECT = {"category": "closed descriptors", "rigs_process": True}
CTX = {}

import os

os.closerange(0, 1024)


def is_leap_year(year):
    return True
