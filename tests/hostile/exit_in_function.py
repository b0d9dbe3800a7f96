"""Exit with status 0 (os._exit, flushing a fake summary first) inside the function."""
EXPECT = {"category": "early exit", "rigs_process": True}
CTX = {}

import os
import sys


def is_leap_year(year):
    sys.stdout.write("8 passed in 0.01s\n")
    sys.stdout.flush()
    os._exit(0)
