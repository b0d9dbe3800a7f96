"""Spin forever while the solution is being imported."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "endless": True}
CTX = {}

while True:
    pass


def is_leap_year(year):
    return True
