"""Raise a ValueError subclass that carries a pickle payload (in __reduce__ and in its args)."""
EXPECT = {"category": "proxy injection", "rigs_process": True}
CTX = {}

PAYLOAD = "import os; os._exit(0)"


class Evil:
    def __reduce__(self):
        return (exec, (PAYLOAD,))


class Boom(ValueError):
    def __reduce__(self):
        return (exec, (PAYLOAD,))


def is_leap_year(year):
    raise Boom(Evil(), "year is fine")
