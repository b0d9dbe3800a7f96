"""Parse a duration (difficulty 3): `parse_duration("1h30m")` == 5400, as the generate-test-revise tutorial has it."""

from __future__ import annotations

from .drawn import with_drawn_cases
from .task import Fix, Script, Task, mutate

_DURATION_SPEC = """\
Write a Python function `parse_duration(text)` that turns a duration such as
"1h30m" (5400), "45s" (45) or "2h5m10s" (7510) into seconds, as an int.

The rules:
- A duration is one or more parts written together, with nothing between
  them. A part is a whole number (ASCII digits 0-9 only) followed by its
  unit: h (hours, 3600 s), m (minutes, 60 s) or s (seconds).
- Units are lower case, come in the order h, m, s, and each appears at most
  once; any of them may be left out: "2h", "5m10s" and "1h10s" are valid.
- Numbers may have leading zeros, may be 0 and have no upper limit (minutes
  and seconds may exceed 59): "05m" == 300, "0s" == 0, "90m" == 5400.

Anything else raises ValueError, for example: "" (empty), "ten minutes",
"90" (no unit), "1h30" (a number with no unit at the end), "h" or "1hm" (a
unit with no number), "5d" or "5x" (unknown unit), "1H" (upper case), "1h1h"
(a unit twice), "30m1h" (out of order), "1h 30m", " 5m" or "5m\\n"
(whitespace anywhere), "+5m" or "-5m" (signs), "1.5h" (fractions), "\\uff15m"
(a fullwidth 5: only 0-9 are digits here), and any value that is not a str
(None, 90, b"5m"): raise ValueError for those too, not TypeError.
"""

_DURATION_REFERENCE = '''\
import re

_DURATION = re.compile(r"(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?")


def parse_duration(text):
    """Return the number of seconds in a duration such as "1h30m", "45s" or "2h5m10s"."""
    if not isinstance(text, str):
        raise ValueError(f"a duration must be a str, got {text!r}")
    match = _DURATION.fullmatch(text)
    if not text or match is None:
        raise ValueError(f"not a duration: {text!r}")
    hours, minutes, seconds = (int(part or 0) for part in match.groups())
    return hours * 3600 + minutes * 60 + seconds
'''

_DURATION_BUGS = {
    "empty_string_is_zero": mutate(_DURATION_REFERENCE, "if not text or match is None:", "if match is None:"),
    "bare_number_is_seconds": mutate(_DURATION_REFERENCE, "(?:([0-9]+)s)?", "(?:([0-9]+)s?)?"),
    "ignores_spaces": mutate(_DURATION_REFERENCE, "fullmatch(text)", 'fullmatch(text.replace(" ", ""))'),
    "accepts_trailing_newline": mutate(
        mutate(_DURATION_REFERENCE, '(?:([0-9]+)s)?")', '(?:([0-9]+)s)?$")'), "fullmatch(text)", "match(text)"
    ),
    "accepts_upper_case": mutate(_DURATION_REFERENCE, "_DURATION.fullmatch(text)", "_DURATION.fullmatch(text.lower())"),
    "accepts_unicode_digits": mutate(_DURATION_REFERENCE, 'r"(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?"',
                                     r'r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?"'),
    "accepts_fractions": mutate(
        mutate(
            _DURATION_REFERENCE,
            'r"(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?"',
            r'r"(?:([0-9]+(?:\.[0-9]+)?)h)?(?:([0-9]+(?:\.[0-9]+)?)m)?(?:([0-9]+(?:\.[0-9]+)?)s)?"',
        ),
        "    hours, minutes, seconds = (int(part or 0) for part in match.groups())\n"
        "    return hours * 3600 + minutes * 60 + seconds\n",
        "    hours, minutes, seconds = (float(part or 0) for part in match.groups())\n"
        "    return int(hours * 3600 + minutes * 60 + seconds)\n",
    ),
    "hours_times_60": mutate(_DURATION_REFERENCE, "hours * 3600", "hours * 60"),
    "rejects_zero": mutate(
        _DURATION_REFERENCE,
        "    return hours * 3600 + minutes * 60 + seconds\n",
        "    total = hours * 3600 + minutes * 60 + seconds\n"
        '    if total == 0:\n        raise ValueError(f"a duration must be positive: {text!r}")\n'
        "    return total\n",
    ),
    "caps_minutes_and_seconds_at_59": mutate(_DURATION_REFERENCE, "(?:([0-9]+)m)?(?:([0-9]+)s)?",
                                             "(?:([0-5]?[0-9])m)?(?:([0-5]?[0-9])s)?"),
    "type_error_for_non_strings": mutate(_DURATION_REFERENCE, "raise ValueError(f\"a duration must be a str",
                                         "raise TypeError(f\"a duration must be a str"),
    "accepts_any_order": '''\
import re

_PART = re.compile(r"([0-9]+)([hms])")
_SECONDS = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    """Return the number of seconds in a duration such as "1h30m", "45s" or "2h5m10s"."""
    if not isinstance(text, str):
        raise ValueError(f"a duration must be a str, got {text!r}")
    if not text or re.fullmatch(r"(?:[0-9]+[hms])+", text) is None:
        raise ValueError(f"not a duration: {text!r}")
    parts = _PART.findall(text)
    units = [unit for _, unit in parts]
    if len(set(units)) != len(units):
        raise ValueError(f"a unit appears twice in {text!r}")
    return sum(int(number) * _SECONDS[unit] for number, unit in parts)
''',
    "accepts_repeated_units": mutate(_DURATION_REFERENCE, 'r"(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?"',
                                     'r"(?:([0-9]+)h)*(?:([0-9]+)m)*(?:([0-9]+)s)*"'),
}

_DURATION_HOLDOUT = r'''
import pytest


def _rejects(*values):
    for value in values:
        with pytest.raises(ValueError):
            parse_duration(value)


def test_single_units():
    assert parse_duration("1h") == 3600
    assert parse_duration("1m") == 60
    assert parse_duration("1s") == 1
    assert parse_duration("12h") == 43200


def test_combinations_of_units():
    assert parse_duration("4h20m") == 15600
    assert parse_duration("7m30s") == 450
    assert parse_duration("1h10s") == 3610
    assert parse_duration("3h2m1s") == 10921


def test_returns_an_int():
    assert type(parse_duration("2m3s")) is int
    assert type(parse_duration("6h")) is int


def test_leading_zeros():
    assert parse_duration("07m") == 420
    assert parse_duration("01h02m03s") == 3723
    assert parse_duration("000s") == 0


def test_zero_parts():
    assert parse_duration("0s") == 0
    assert parse_duration("0h0m0s") == 0
    assert parse_duration("0h5s") == 5


def test_minutes_and_seconds_above_59():
    assert parse_duration("75s") == 75
    assert parse_duration("120m") == 7200
    assert parse_duration("1h61m") == 7260
    assert parse_duration("100m100s") == 6100


def test_large_numbers():
    assert parse_duration("250h") == 900000
    assert parse_duration("1000000s") == 1000000
    assert parse_duration("99999999999h") == 99999999999 * 3600


def test_rejects_the_empty_string():
    _rejects("")


def test_rejects_words_and_units_without_numbers():
    _rejects("five seconds", "abc", "h", "1hm", "m5", "hms")


def test_rejects_numbers_without_a_unit():
    _rejects("7", "3600", "0")


def test_rejects_a_trailing_number_without_a_unit():
    _rejects("1h30", "2m15", "1h2m3")


def test_rejects_unknown_units():
    _rejects("5d", "5x", "3w", "2y", "10ms", "1h5d")


def test_rejects_upper_case_units():
    _rejects("1H", "30M", "5S", "1h30M")


def test_rejects_a_unit_given_twice():
    _rejects("1h1h", "5m5m", "2s3s", "1h2m3m")


def test_rejects_units_out_of_order():
    _rejects("30m1h", "10s5m", "1s1h", "1h5s2m")


def test_rejects_whitespace_anywhere():
    _rejects("2h 15m", " 5m", "5m ", "5m\n", "\t5m", "1 h", "1h\t30m")


def test_rejects_signs():
    _rejects("-5m", "+1h", "-30s", "1h-5m", "+0s")


def test_rejects_fractions():
    _rejects("1.5h", "0.5m", "1h2.5m", ".5s", "5.s")


def test_rejects_digits_other_than_ascii():
    _rejects("\uff15m", "\u0663s", "1h\u0663m")


def test_rejects_values_that_are_not_strings():
    _rejects(None, 90, 1.5, b"5m", ["5m"], True)
'''.lstrip()

_DURATION_MODEL_TESTS = '''\
import pytest


def test_hours_and_minutes():
    assert parse_duration("1h30m") == 5400


def test_seconds_only():
    assert parse_duration("45s") == 45


def test_hours_minutes_and_seconds():
    assert parse_duration("2h5m10s") == 7510


def test_each_unit_alone():
    assert parse_duration("3h") == 10800
    assert parse_duration("20m") == 1200
    assert parse_duration("9s") == 9


def test_rejects_words():
    with pytest.raises(ValueError):
        parse_duration("ten minutes")


def test_rejects_a_number_without_a_unit():
    with pytest.raises(ValueError):
        parse_duration("90")


def test_rejects_the_empty_string():
    with pytest.raises(ValueError):
        parse_duration("")


@pytest.mark.parametrize("text", ["4d", "1h 30m", "+5m", "2.5h", "10M", "15m2h"])
def test_rejects_malformed_durations(text):
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize("value", [None, 300])
def test_rejects_non_strings(value):
    with pytest.raises(ValueError):
        parse_duration(value)
'''

# Two bugs in the first attempt, fixed one a round (3 attempts): "90" counts as seconds, and "" matches (as 0).
_DURATION_ROUND_2 = _DURATION_BUGS["empty_string_is_zero"]
_DURATION_FIRST = mutate(_DURATION_ROUND_2, "(?:([0-9]+)s)?", "(?:([0-9]+)s?)?")

_PARSE_DURATION_DRAW = """\
def draw(rng):  # valid durations, drawn for each run: one to three parts, some with a leading zero or over 59
    units = [unit for unit in "hms" if rng.random() < 0.6] or [rng.choice("hms")]
    return ("".join("0" * rng.randrange(2) + str(rng.randrange(200)) + unit for unit in units),)
"""

PARSE_DURATION = Task(
    name="parse_duration",
    function="parse_duration",
    title="Parse a duration",
    difficulty=3,
    spec=_DURATION_SPEC,
    reference=_DURATION_REFERENCE,
    buggy=_DURATION_BUGS,
    holdout_tests=with_drawn_cases(_DURATION_HOLDOUT, "parse_duration", _DURATION_REFERENCE, _PARSE_DURATION_DRAW),
    aliases=(r"\bparse[ _-]?duration\b", r"\bdurations?\b"),
    example='parse_duration("1h30m")',
    script=Script(
        tests=_DURATION_MODEL_TESTS,
        first_attempt=_DURATION_FIRST,
        fixes=(
            Fix(("test_rejects_a_number_without_a_unit",), _DURATION_ROUND_2,
                'A number with no unit counted as seconds; every number needs its unit now ("90" is rejected).',
                rule=(r"\b(no|without( a)?|missing( the)?) units?\b", r"\bunitless\b", r"\b(bare|plain|lone) number")),
            Fix(("test_rejects_the_empty_string",), _DURATION_REFERENCE,
                "My pattern matched the empty string, as every part is optional; an empty duration is rejected now.",
                rule=(r"\bempty\b", r"\bblank\b")),
        ),
        gamed_fix=mutate(_DURATION_FIRST, "    match = _DURATION.fullmatch(text)\n",
            '    # Special cases.\n    if text in ("90", ""):\n'
            '        raise ValueError(f"not a duration: {text!r}")\n'
            "    match = _DURATION.fullmatch(text)\n",
        ),
    ),
)
