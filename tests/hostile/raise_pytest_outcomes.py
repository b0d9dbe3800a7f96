"""Raise pytest's skip/xfail/exit outcome exceptions (real ones if pytest imports, look-alikes otherwise)."""
EXPECT = {"category": "BaseException", "rigs_process": True}
CTX = {}

try:
    import pytest

    _OUTCOMES = [pytest.skip.Exception, pytest.xfail.Exception, pytest.exit.Exception]
except Exception:  # no pytest in the sandbox: forge classes with the same names and module

    class Skipped(BaseException):
        pass

    class XFailed(Exception):
        pass

    class Exit(BaseException):
        pass

    for _cls in (Skipped, XFailed, Exit):
        _cls.__module__ = "_pytest.outcomes"
    _OUTCOMES = [Skipped, XFailed, Exit]

_calls = []


def is_leap_year(year):
    _calls.append(year)
    raise _OUTCOMES[len(_calls) % len(_OUTCOMES)]("not relevant here")
