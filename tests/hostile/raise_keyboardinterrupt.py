"""Raise KeyboardInterrupt from the function, as if the user pressed Ctrl-C during the tests."""
EXPECT = {"category": "BaseException", "rigs_process": True}
CTX = {}


def is_leap_year(year):
    raise KeyboardInterrupt
