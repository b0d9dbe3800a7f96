"""Spin forever inside the function."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "endless": True}
CTX = {}


def is_leap_year(year):
    while True:
        pass
