"""Sleep (no CPU used, so CPU limits never fire) inside the function."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "endless": True}
CTX = {}

import time


def is_leap_year(year):
    time.sleep(10**6)
