"""Spin forever inside the function."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "timeout": 1.0}
CTX = {}


def is_leap_year(year):
    while True:
        pass
