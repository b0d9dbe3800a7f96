"""Mistake (step 3): ends its own process (a leftover debugging exit), so nothing comes back."""

import os

import harness
from solutions.agent import extract_code, holdout_check, solve, write_tests  # noqa: F401

EXPECTED = {"step": 3, "check": "calls_the_given_ask_once", "says": "exited with code 3"}


def write_solution(spec, ask=harness.ask, feedback=""):
    reply = ask(f"Implement this specification in Python:\n{spec}\n{feedback}")
    os._exit(3)
    return extract_code(reply)
