"""Abort the interpreter (SIGABRT) inside the function, after printing a passing summary."""
EXPECT = {"category": "crash", "rigs_process": True}
CTX = {}

import os


def is_leap_year(year):
    os.write(1, b"8 passed in 0.01s\n")
    os.abort()
