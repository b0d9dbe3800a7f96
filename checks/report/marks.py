"""The marks and colours of the four statuses, in every view: `:)` in text, a glyph in a notebook, a colour."""

from __future__ import annotations

from ..engine import BLOCKED, FAILED, NOT_STARTED, PASSED

MARKS = {PASSED: ":)", FAILED: ":(", NOT_STARTED: ":|", BLOCKED: ":|"}  # check50's, in text
GLYPHS = {PASSED: "✔", FAILED: "✘", NOT_STARTED: "○", BLOCKED: "⊘"}  # in a notebook: glyphs every common font has
COLOURS = {PASSED: "#1a7f37", FAILED: "#cf222e", NOT_STARTED: "#6e7781", BLOCKED: "#9a6700"}  # in HTML
ANSI = {PASSED: "32", FAILED: "31", NOT_STARTED: "33", BLOCKED: "33"}  # on a terminal: green, red, yellow
