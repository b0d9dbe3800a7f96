"""Forgery: ends its process with status 0 at import, skipping even Python's own exit handling."""

import os

os._exit(0)

EXPECTED = {"may_pass": []}


def extract_code(reply):
    return reply
