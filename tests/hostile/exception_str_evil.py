"""Raise exceptions whose __str__/__repr__ hang, raise SystemExit, or return huge text."""
EXPECT = {"category": "proxy injection", "rigs_process": True, "endless": True}  # its Hangs never ends
CTX = {}

_calls = []


class Hangs(ValueError):
    def __str__(self):
        while True:
            pass


class Exits(ValueError):
    def __str__(self):
        raise SystemExit(0)

    __repr__ = __str__


class Huge(ValueError):
    def __str__(self):
        return "x" * 50_000_000


def is_leap_year(year):
    _calls.append(year)
    raise [Exits, Huge, Hangs][len(_calls) % 3]()
