"""Spin forever inside the function."""
EXPECT = {"category": "infinite loop", "error": ["timeout"]}
CTX = {}


def is_leap_year(year):
    while True:
        pass
