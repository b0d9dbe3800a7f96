"""Forgery: exits with status 0 as soon as it is imported, hoping a clean exit reads as success."""

import sys

sys.exit(0)

EXPECTED = {"may_pass": []}


def extract_code(reply):
    return reply
