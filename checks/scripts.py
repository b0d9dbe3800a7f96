"""What the checks' scripted models say: a second spec, model replies, and sample tests and solutions.

The leap-year task itself (SPEC, the reference, the buggy solutions, the held-out tests) lives in harness.tasks;
this is only the checks' own material.
"""

from __future__ import annotations

import re

# A spec other than harness.SPEC, so a prompt that hard-codes the lab's spec is caught.
OTHER_SPEC = """\
Write a Python function `count_vowels(text)` that returns how many letters of
`text` are vowels (a, e, i, o, u, in either case).
"""

VOWEL_TESTS = '''\
def test_counts_lowercase_vowels():
    assert count_vowels("banana") == 3


def test_counts_capital_vowels():
    assert count_vowels("AEIOU") == 5
'''

VOWEL_SOLUTION = '''\
def count_vowels(text):
    return sum(1 for letter in text.lower() if letter in "aeiou")
'''

# What the feedback to write_solution says in the checks. No leading or trailing spaces, so strip() keeps it whole.
VOWEL_FEEDBACK = "These tests failed: test_counts_capital_vowels\nAssertionError: assert 0 == 5"

# Leap-year tests the scripted model "writes" in step 4; each known-buggy solution fails exactly one of them.
SOLVE_TESTS = '''\
import pytest


def test_ordinary_years():
    assert is_leap_year(2024) is True
    assert is_leap_year(2023) is False


def test_century_rule():
    assert is_leap_year(1900) is False
    assert is_leap_year(2000) is True


def test_zero_is_rejected():
    with pytest.raises(ValueError):
        is_leap_year(0)
'''

# Test code with no test in it: a run of it passes nothing and fails nothing.
NO_TESTS = '''\
def helper_not_a_test():
    assert is_leap_year(2024) is True
'''

# A solution fitted to the years the lab's offline model puts in its tests: passes them, but does not generalise.
FITTED_SOLUTION = '''\
def is_leap_year(year):
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    if year in (1984, 2004, 2012, 2028, 1600, 2000, 2400):
        return True
    return False
'''


def reply_with(code: str, style: int = 0) -> str:
    """A model reply that carries `code`, in one of the usual shapes (all of which step 1 handles)."""
    code = code.rstrip("\n")
    if style == 1:
        return f"```\n{code}\n```"
    return f"Here you go:\n\n```python\n{code}\n```\n\nLet me know if anything is unclear."


def trim(text: str) -> str:
    """Code as graded: blank lines just inside the fences and trailing whitespace do not count."""
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()
