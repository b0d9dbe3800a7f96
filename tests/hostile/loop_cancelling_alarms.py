"""Spin while cancelling alarms and interval timers, and lifting CPU/time limits, on every iteration."""
EXPECT = {"category": "infinite loop", "error": ["timeout"], "endless": True}
CTX = {}

import resource
import signal


def _lift():
    signal.alarm(0)
    for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
        signal.setitimer(timer, 0)
    for sig in (signal.SIGALRM, signal.SIGXCPU, signal.SIGVTALRM, signal.SIGPROF, signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    for limit in (resource.RLIMIT_CPU, resource.RLIMIT_AS, resource.RLIMIT_NPROC):
        try:
            soft, hard = resource.getrlimit(limit)
            resource.setrlimit(limit, (hard, hard))
        except (ValueError, OSError):
            pass


def is_leap_year(year):
    while True:
        _lift()
