"""harness.text: the one cut, one line, and text made safe to show."""

from harness.text import clean, clean_data, cut, one_line


def test_cut_keeps_text_that_fits_and_says_how_much_it_cut():
    assert cut("abc", 3) == "abc"
    assert cut("abcdef", 3) == "abc [... 3 more characters cut]"
    assert cut(12345, 2) == "12 [... 3 more characters cut]"


def test_one_line_folds_white_space_and_ends_a_cut_with_an_ellipsis():
    assert one_line("a\n  b\tc", 10) == "a b c"
    assert one_line("x" * 20, 10) == "x" * 9 + "…"
    assert len(one_line("y" * 500, 120)) == 120


def test_clean_escapes_what_a_terminal_or_a_file_cannot_take_raw():
    assert clean("ok\n\ttabs stay") == "ok\n\ttabs stay"
    assert clean("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m"
    assert clean("a\x00b\rc\x7f") == "a\\x00b\\x0dc\\x7f"
    assert clean("lone \ud800 and \udcff") == "lone \\ud800 and \\udcff"
    assert clean("é ü 漢字 😀") == "é ü 漢字 😀"
    clean("\ud800\x00").encode("utf-8")  # encodes: nothing left that UTF-8 refuses


def test_clean_escapes_the_bidirectional_controls_that_make_code_read_otherwise_than_it_runs():
    controls = "".join(map(chr, [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
    assert clean(controls) == "".join(f"\\u{ord(c):04x}" for c in controls)
    assert clean('if access != "user\u202e \u2066# admin\u2069 \u2066":') == \
        'if access != "user\\u202e \\u2066# admin\\u2069 \\u2066":'
    assert clean("שלום, مرحبا") == "שלום, مرحبا"  # right-to-left text itself is shown as it is


def test_clean_data_reaches_every_string_and_key():
    data = {"k\x1b": ["a\x00", ("b\ud800", 1, None)], "n": 2.5}
    assert clean_data(data) == {"k\\x1b": ["a\\x00", ("b\\ud800", 1, None)], "n": 2.5}
