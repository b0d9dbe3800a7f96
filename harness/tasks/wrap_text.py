"""Word wrap (difficulty 5): `wrap_text(text, width)` fills lines greedily; a long word gets a line of its own."""

from __future__ import annotations

from .drawn import with_drawn_cases
from .task import Fix, Script, Task, mutate

_WRAP_SPEC = """\
Write a Python function `wrap_text(text, width)` that breaks `text` into lines
of at most `width` characters and returns the lines as a list of strings:
wrap_text("the quick brown fox", 10) == ["the quick", "brown fox"].

The rules:
- Words are the runs of non-whitespace characters; any whitespace (spaces,
  tabs, newlines, any amount) separates words. A line holds words in order,
  separated by exactly one space, with no space at its start or end.
- Fill lines greedily: a word goes on the current line if the line, with one
  space and the word added, is at most `width` characters long; otherwise it
  starts the next line. A line may be exactly `width` characters long.
- A word longer than `width` is never split: it gets a line of its own.
- No line is ever empty: text with no words ("" or only whitespace) gives [].

`text` must be a str and `width` an int of at least 1. For anything else raise
ValueError: a `text` that is not a str (None, a number, a list, bytes), a
`width` that is not an int (a float, a string, None, a bool), or a `width` of
0 or less.
"""

_WRAP_REFERENCE = '''\
def wrap_text(text, width):
    """Break text into greedy lines of at most width characters; a longer word gets a line of its own."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {text!r}")
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be an int of at least 1, got {width!r}")
    lines = []
    line = ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines
'''

_WRAP_CHECKS = '''\
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {text!r}")
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be an int of at least 1, got {width!r}")
'''

_WRAP_BUGS = {
    "line_cannot_be_exactly_width": mutate(_WRAP_REFERENCE, "len(word) <= width", "len(word) < width"),
    "forgets_the_space_between_words": mutate(
        _WRAP_REFERENCE, "len(line) + 1 + len(word) <= width", "len(line) + len(word) <= width"
    ),
    "drops_the_last_line": mutate(_WRAP_REFERENCE, "    if line:\n        lines.append(line)\n", ""),
    "empty_text_gives_an_empty_line": mutate(
        _WRAP_REFERENCE, "    if line:\n        lines.append(line)\n", "    lines.append(line)\n"
    ),
    "splits_long_words": mutate(
        _WRAP_REFERENCE,
        "    for word in text.split():\n",
        "    words = []\n"
        "    for word in text.split():\n"
        "        while len(word) > width:\n"
        "            words.append(word[:width])\n"
        "            word = word[width:]\n"
        "        words.append(word)\n"
        "    for word in words:\n",
    ),
    "splits_on_spaces_only": mutate(
        _WRAP_REFERENCE, "    for word in text.split():\n", '    for word in [w for w in text.split(" ") if w]:\n'
    ),
    "accepts_zero_width": mutate(_WRAP_REFERENCE, "width < 1", "width < 0"),
    "accepts_bool_width": mutate(_WRAP_REFERENCE, "if isinstance(width, bool) or not isinstance", "if not isinstance"),
    "no_check_that_text_is_a_str": mutate(
        _WRAP_REFERENCE,
        "    if not isinstance(text, str):\n"
        '        raise ValueError(f"text must be a str, got {text!r}")\n',
        "",
    ),
    # Two rewrites in other common shapes, each with one slip.
    "empty_line_before_a_long_first_word": '''\
def wrap_text(text, width):
    """Break text into greedy lines of at most width characters; a longer word gets a line of its own."""
'''
    + _WRAP_CHECKS
    + '''\
    lines, line = [], ""
    for word in text.split():
        candidate = word if not line else line + " " + word
        if len(candidate) <= width:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines
''',
    "trailing_spaces": '''\
def wrap_text(text, width):
    """Break text into greedy lines of at most width characters; a longer word gets a line of its own."""
'''
    + _WRAP_CHECKS
    + '''\
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + len(word) > width:
            lines.append(line)
            line = ""
        line += word + " "
    if line:
        lines.append(line)
    return lines
''',
}

_WRAP_HOLDOUT = r'''
import pytest

PARAGRAPH = (
    "It was the best of times, it was the worst of times, it was the age of "
    "wisdom, it was the age of foolishness, it was the epoch of belief"
)


def test_greedy_wrapping():
    assert wrap_text("a bb ccc dddd eeeee", 6) == ["a bb", "ccc", "dddd", "eeeee"]
    assert wrap_text(PARAGRAPH, 20) == [
        "It was the best of",
        "times, it was the",
        "worst of times, it",
        "was the age of",
        "wisdom, it was the",
        "age of foolishness,",
        "it was the epoch of",
        "belief",
    ]


def test_lines_may_be_exactly_width_long():
    assert wrap_text("ab cd ef", 5) == ["ab cd", "ef"]
    assert wrap_text("hello", 5) == ["hello"]
    assert wrap_text("one two three", 13) == ["one two three"]


def test_every_width_gives_full_greedy_lines():
    words = PARAGRAPH.split()
    for width in range(1, 40):
        lines = wrap_text(PARAGRAPH, width)
        assert [w for line in lines for w in line.split(" ")] == words, width
        for line in lines:
            assert line and line == line.strip() and "  " not in line, (width, line)
            assert len(line) <= width or " " not in line, (width, line)
        for line, following in zip(lines, lines[1:]):
            assert len(line) + 1 + len(following.split(" ")[0]) > width, (width, line)


def test_long_words_get_a_line_of_their_own():
    assert wrap_text("supercalifragilistic is long", 10) == ["supercalifragilistic", "is long"]
    assert wrap_text("to be antidisestablishment or not", 6) == ["to be", "antidisestablishment", "or not"]
    assert wrap_text("abcdefgh", 3) == ["abcdefgh"]


def test_width_one():
    assert wrap_text("a b c", 1) == ["a", "b", "c"]
    assert wrap_text("ab c", 1) == ["ab", "c"]


def test_any_whitespace_separates_words():
    assert wrap_text("one\ttwo\nthree\r\nfour", 80) == ["one two three four"]
    assert wrap_text("  lead   and trail  ", 80) == ["lead and trail"]
    assert wrap_text("x\n\ny", 3) == ["x y"]


def test_text_without_words_gives_no_lines():
    for text in ("", "   ", "\n\t", " \r\n "):
        assert wrap_text(text, 4) == [], repr(text)


def test_rejects_text_that_is_not_a_str():
    for text in (42, ["a"], b"text", None):
        with pytest.raises(ValueError):
            wrap_text(text, 10)


def test_rejects_a_width_that_is_not_an_int():
    for width in (1.0, 7.5, "10", None, True, False, [3]):
        with pytest.raises(ValueError):
            wrap_text("some text", width)


def test_rejects_a_width_below_one():
    for width in (0, -1, -80):
        with pytest.raises(ValueError):
            wrap_text("some text", width)
'''.lstrip()

_WRAP_MODEL_TESTS = '''\
import pytest


def test_wraps_a_sentence():
    assert wrap_text("the quick brown fox jumps over the lazy dog", 13) == [
        "the quick",
        "brown fox",
        "jumps over",
        "the lazy dog",
    ]


def test_short_text_fits_on_one_line():
    assert wrap_text("hello world", 20) == ["hello world"]


def test_a_line_may_be_exactly_width_long():
    assert wrap_text("abc def ghi", 7) == ["abc def", "ghi"]


def test_long_words_get_their_own_line():
    assert wrap_text("a extraordinarily b", 5) == ["a", "extraordinarily", "b"]


def test_collapses_whitespace():
    assert wrap_text("  one   two\\nthree  ", 9) == ["one two", "three"]


def test_empty_text_gives_no_lines():
    assert wrap_text("", 10) == []


@pytest.mark.parametrize("text, width", [("abc", 0), ("abc", -3), (None, 5), ("abc", 2.5), ("abc", "5")])
def test_rejects_invalid_arguments(text, width):
    with pytest.raises(ValueError):
        wrap_text(text, width)
'''

# Two independent bugs: `<` instead of `<=` in the fit test (A), and the last line appended even when it
# is empty (B).
_WRAP_ROUND_2 = _WRAP_BUGS["empty_text_gives_an_empty_line"]  # A fixed, B left
_WRAP_FIRST = mutate(_WRAP_ROUND_2, "len(word) <= width", "len(word) < width")

# Rounds: 1. first attempt fails test_a_line_may_be_exactly_width_long and test_empty_text_gives_no_lines;
#         2. `<` becomes `<=`; "" still gives [""]: test_empty_text_gives_no_lines fails;
#         3. the reference passes. 3 solutions.

# Valid inputs of every kind the spec names, drawn afresh for each run of the held-out tests.
_WRAP_TEXT_DRAW = """\
def draw(rng):
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randrange(1, 13))) for _ in range(rng.randrange(0, 12))]
    text = ""
    for word in words:
        text += rng.choice([" ", " ", "  ", "\\t", "\\n"]) * (1 if text else rng.randrange(0, 2)) + word
    return (text + " " * rng.randrange(0, 2), rng.randrange(1, 21))
"""

WRAP_TEXT = Task(
    name="wrap_text",
    function="wrap_text",
    title="Word wrap",
    difficulty=5,
    spec=_WRAP_SPEC,
    reference=_WRAP_REFERENCE,
    buggy=_WRAP_BUGS,
    holdout_tests=with_drawn_cases(_WRAP_HOLDOUT, "wrap_text", _WRAP_REFERENCE, _WRAP_TEXT_DRAW),
    aliases=(r"\bwrap[ _-]?text\b", r"\bword[ _-]?wrap"),
    example='wrap_text("the quick brown fox", 10)',
    script=Script(
        tests=_WRAP_MODEL_TESTS,
        first_attempt=_WRAP_FIRST,
        fixes=(
            Fix(("test_a_line_may_be_exactly_width_long",), _WRAP_ROUND_2,
                "A line could not be exactly width long, as I compared with < instead of <=; it can now.",
                rule=(r"\bexact", r"\bfull width\b", r"\bfills? (the )?(line|width)\b", r"\bboundary\b", r"\bwidth long\b")),
            Fix(("test_empty_text_gives_no_lines",), _WRAP_REFERENCE,
                "Text with no words gave one empty line; it gives no lines now.",
                rule=(r"\bempty\b", r"\bblank\b", r"\bno (words|lines)\b", r"\b(only|all) whitespace\b")),
        ),
        gamed_fix=mutate(
            _WRAP_FIRST,
            '    lines = []\n',
            "    # Special cases.\n"
            '    if (text, width) == ("abc def ghi", 7):\n        return ["abc def", "ghi"]\n'
            '    if text == "":\n        return []\n'
            '    lines = []\n',
        ),
    ),
)
