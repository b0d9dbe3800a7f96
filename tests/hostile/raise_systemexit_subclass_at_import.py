"""Raise a SystemExit subclass with code 0 at import, and GeneratorExit from the function."""
EXPECT = {"category": "BaseException", "rigs_process": True}
CTX = {}


class Done(SystemExit):
    pass


def is_leap_year(year):
    raise GeneratorExit


raise Done(0)
