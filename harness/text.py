"""Text from code the lab runs, made safe to show and cut to a size: the one home of `cut`, `one_line` and `clean`.

Imports nothing of the lab: the sandbox's processes load this file by path, without the `harness` package.
"""

from __future__ import annotations

import re

# Control characters other than tab and newline (terminal escapes, NUL, ...); the bidirectional controls (marks,
# embeddings, overrides, isolates), with which an editor or a browser shows other code than runs (Trojan Source,
# CVE-2021-42574); and lone surrogates, which UTF-8 cannot encode. All can come from code the lab runs; none may
# reach a terminal, a file or a report raw.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def cut(text, limit: int) -> str:
    """`text` as it is when it fits in `limit` characters; otherwise its start, and a note saying how much was cut."""
    text = str(text)
    if len(text) <= limit:
        return text
    return text[:limit] + f" [... {len(text) - limit} more characters cut]"


def one_line(text, limit: int) -> str:
    """`text` on one line (each run of white space becomes one space), at most `limit` characters, ending in '…'
    when it was cut."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def clean(text) -> str:
    """`text` safe to print, write as UTF-8 or put in XML: control characters, bidirectional controls and lone
    surrogates become visible escapes (`\\x1b`, `\\u202e`, `\\ud800`); a carriage return becomes `\\x0d`, so nothing
    can rewrite a line already shown, nor make code read otherwise than it runs."""
    return _UNSAFE.sub(_escape, str(text))


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean_data(value):
    """`clean` applied to every string (and dict key) in plain data: lists, tuples and dicts are rebuilt."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list):
        return [clean_data(v) for v in value]
    if isinstance(value, tuple):
        return tuple(clean_data(v) for v in value)
    if isinstance(value, dict):
        return {clean_data(k): clean_data(v) for k, v in value.items()}
    return value
