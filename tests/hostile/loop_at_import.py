"""Spin forever while the solution is being imported."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "timeout": 1.0}
CTX = {}

while True:
    pass


def is_leap_year(year):
    return True
