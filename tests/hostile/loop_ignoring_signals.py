"""Ignore every catchable signal, block the rest where it can, then spin forever."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "endless": True}
CTX = {}

import signal


def _deafen():
    for sig in range(1, signal.NSIG):
        try:
            signal.signal(sig, signal.SIG_IGN)
        except (OSError, ValueError, RuntimeError):
            pass
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, set(range(1, signal.NSIG)))
    except (OSError, ValueError):
        pass


_deafen()


def is_leap_year(year):
    _deafen()
    while True:
        pass
