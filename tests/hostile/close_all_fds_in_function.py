"""Close every descriptor during the first call, then keep answering as if nothing happened."""
EXPECT = {"category": "closed descriptors", "rigs_process": True}
CTX = {}

import os


def is_leap_year(year):
    os.closerange(0, 1024)
    return True
