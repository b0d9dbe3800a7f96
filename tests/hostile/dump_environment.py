"""Dump its own environment into results and output: the caller's API key must not be in it, at any level."""
EXPECT = {"category": "environment dump"}
CTX = {}

import json
import os
import sys


def _everything():
    return json.dumps(dict(os.environ))[:20_000]


print(_everything())
print(_everything(), file=sys.stderr)


def is_leap_year(year):
    text = _everything()
    if isinstance(year, int) and year % 2:
        raise ValueError(text)
    return text
