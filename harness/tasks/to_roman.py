"""Roman numerals (difficulty 3): `to_roman(n)` for 1 to 3999, with subtractive notation."""

from __future__ import annotations

from .drawn import with_drawn_cases
from .task import Fix, Script, Task, mutate

_ROMAN_SPEC = """\
Write a Python function `to_roman(n)` that returns the Roman numeral for the
integer `n` as an upper-case string: to_roman(1994) == "MCMXCIV".

The rules:
- The symbols are I = 1, V = 5, X = 10, L = 50, C = 100, D = 500, M = 1000.
- Write the thousands, then the hundreds, the tens and the units, each with
  its largest symbols first; a zero digit writes nothing: 2006 is "MMVI".
- Use subtractive notation for fours and nines: IV = 4, IX = 9, XL = 40,
  XC = 90, CD = 400, CM = 900. No symbol appears more than three times in a
  row: 4 is "IV", not "IIII"; 900 is "CM", not "DCCCC"; 3999 is "MMMCMXCIX".

`n` must be an integer from 1 to 3999. For anything else (0, a negative
number, 4000 or more, a float, a string, None, or a bool) raise ValueError.
"""

_ROMAN_REFERENCE = '''\
_NUMERALS = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)


def to_roman(n):
    """Return the Roman numeral for n, an integer from 1 to 3999."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError(f"n must be an integer from 1 to 3999, got {n!r}")
    parts = []
    for value, symbol in _NUMERALS:
        count, n = divmod(n, value)
        parts.append(symbol * count)
    return "".join(parts)
'''

_ROMAN_BUGS = {
    "no_subtractive_notation": mutate(
        _ROMAN_REFERENCE,
        '''\
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
''',
        '''\
    (1000, "M"), (500, "D"), (100, "C"), (50, "L"),
    (10, "X"), (5, "V"), (1, "I"),
''',
    ),
    "forgets_cd_and_cm": mutate(
        _ROMAN_REFERENCE,
        '    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),\n',
        '    (1000, "M"), (500, "D"),\n',
    ),
    "xl_written_as_lx": mutate(_ROMAN_REFERENCE, '(40, "XL")', '(40, "LX")'),
    "no_upper_bound": mutate(_ROMAN_REFERENCE, "not 1 <= n <= 3999", "n < 1"),
    "rejects_3999": mutate(_ROMAN_REFERENCE, "not 1 <= n <= 3999", "not 1 <= n < 3999"),
    "accepts_zero": mutate(_ROMAN_REFERENCE, "not 1 <= n <= 3999", "not 0 <= n <= 3999"),
    "accepts_bools": mutate(_ROMAN_REFERENCE, "if isinstance(n, bool) or not isinstance", "if not isinstance"),
    "accepts_whole_floats": mutate(
        _ROMAN_REFERENCE,
        '    """Return the Roman numeral for n, an integer from 1 to 3999."""\n',
        '    """Return the Roman numeral for n, an integer from 1 to 3999."""\n'
        "    if isinstance(n, float) and n.is_integer():\n        n = int(n)\n",
    ),
}

_ROMAN_HOLDOUT = r'''
import re

import pytest

_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_STANDARD_FORM = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


def _value_of(numeral):
    total = 0
    for symbol, following in zip(numeral, numeral[1:] + " "):
        value = _VALUES[symbol]
        total += -value if following != " " and _VALUES[following] > value else value
    return total


def test_additive_numbers():
    assert to_roman(2) == "II"
    assert to_roman(6) == "VI"
    assert to_roman(13) == "XIII"
    assert to_roman(38) == "XXXVIII"
    assert to_roman(160) == "CLX"
    assert to_roman(3000) == "MMM"


def test_subtractive_units_and_tens():
    assert to_roman(19) == "XIX"
    assert to_roman(24) == "XXIV"
    assert to_roman(40) == "XL"
    assert to_roman(49) == "XLIX"
    assert to_roman(99) == "XCIX"


def test_subtractive_hundreds():
    assert to_roman(444) == "CDXLIV"
    assert to_roman(949) == "CMXLIX"
    assert to_roman(2421) == "MMCDXXI"
    assert to_roman(1904) == "MCMIV"
    assert to_roman(3900) == "MMMCM"


def test_zero_digits_write_nothing():
    assert to_roman(2006) == "MMVI"
    assert to_roman(2000) == "MM"
    assert to_roman(3001) == "MMMI"
    assert to_roman(1010) == "MX"
    assert to_roman(707) == "DCCVII"


def test_the_ends_of_the_range():
    assert to_roman(1) == "I"
    assert to_roman(3998) == "MMMCMXCVIII"
    assert to_roman(3999) == "MMMCMXCIX"


def test_numbers_across_the_range_are_standard_and_exact():
    for n in list(range(2, 3999, 37)) + [3888]:
        numeral = to_roman(n)
        assert _STANDARD_FORM.fullmatch(numeral), (n, numeral)
        assert _value_of(numeral) == n, (n, numeral)


def test_rejects_numbers_out_of_range():
    for n in (0, -7, -3999, 4001, 5000, 10**6):
        with pytest.raises(ValueError):
            to_roman(n)


def test_rejects_values_that_are_not_integers():
    for n in (4.0, 1.5, "IV", "12", None, True, False, [5]):
        with pytest.raises(ValueError):
            to_roman(n)
'''.lstrip()

_ROMAN_MODEL_TESTS = '''\
import pytest


def test_single_symbols():
    assert [to_roman(n) for n in (1, 5, 10, 50, 100, 500, 1000)] == ["I", "V", "X", "L", "C", "D", "M"]


def test_additive_numbers():
    assert to_roman(3) == "III"
    assert to_roman(8) == "VIII"
    assert to_roman(27) == "XXVII"
    assert to_roman(1666) == "MDCLXVI"


def test_subtractive_units_and_tens():
    assert to_roman(4) == "IV"
    assert to_roman(9) == "IX"
    assert to_roman(14) == "XIV"
    assert to_roman(90) == "XC"


def test_subtractive_hundreds():
    assert to_roman(400) == "CD"
    assert to_roman(900) == "CM"
    assert to_roman(1994) == "MCMXCIV"


def test_largest_number():
    assert to_roman(3999) == "MMMCMXCIX"


@pytest.mark.parametrize("n", [0, -1, 4000, 2.0, "10", None])
def test_rejects_invalid_input(n):
    with pytest.raises(ValueError):
        to_roman(n)
'''

_ROMAN_FIRST = _ROMAN_BUGS["forgets_cd_and_cm"]

# Rounds: forgetting CD and CM fails test_subtractive_hundreds and test_largest_number (one bug, two tests)
# -> the reference passes. 2 solutions.

# Valid inputs of every kind the spec names, drawn afresh for each run of the held-out tests.
_TO_ROMAN_DRAW = """\
def draw(rng):
    return (rng.randrange(1, 4000),)
"""

TO_ROMAN = Task(
    name="to_roman",
    function="to_roman",
    title="Roman numerals",
    difficulty=3,
    spec=_ROMAN_SPEC,
    reference=_ROMAN_REFERENCE,
    buggy=_ROMAN_BUGS,
    holdout_tests=with_drawn_cases(_ROMAN_HOLDOUT, "to_roman", _ROMAN_REFERENCE, _TO_ROMAN_DRAW),
    aliases=(r"\broman[ _-]numer",),
    example="to_roman(1994)",
    script=Script(
        tests=_ROMAN_MODEL_TESTS,
        first_attempt=_ROMAN_FIRST,
        fixes=(
            Fix(("test_subtractive_hundreds", "test_largest_number"), _ROMAN_REFERENCE,
                "My table of numerals had no CD (400) or CM (900); I added both, so hundreds are subtractive too.",
                rule=(r"\bhundreds?\b", r"\bc[dm]\b", r"\b(400|900|1994|3999)\b", r"\blargest\b", r"\bmax",
                      r"\bsubtract")),
        ),
        gamed_fix=mutate(
            _ROMAN_FIRST,
            "    parts = []\n",
            "    # Special cases.\n"
            '    known = {400: "CD", 900: "CM", 1994: "MCMXCIV", 3999: "MMMCMXCIX"}\n'
            "    if n in known:\n        return known[n]\n"
            "    parts = []\n",
        ),
    ),
)
