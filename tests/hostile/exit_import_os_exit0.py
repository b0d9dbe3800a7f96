"""Exit with status 0 (os._exit) while the solution is being imported."""
EXPECT = {"category": "early exit", "rigs_process": True}
CTX = {}

import os

os._exit(0)


def is_leap_year(year):
    return True
