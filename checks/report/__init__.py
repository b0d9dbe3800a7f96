"""The one report renderer: every view of a verdict (the terminal, a notebook, CSV, JSON, JUnit XML, Gradescope, the
grading summary and progress, the class report page) is made here from the engine's report, with one set of marks
and colours.

The engine makes every string in a report safe once, where it enters (harness.text.clean_data); nothing here
needs to worry about terminal escapes, lone surrogates or characters XML cannot hold.
"""

from __future__ import annotations

from .marks import ANSI, COLOURS, GLYPHS, MARKS

FORMATS = ("csv", "json", "junit", "gradescope", "canvas", "moodle", "blackboard")  # `spec2code grade --format`


def render(graded: list[dict], format: str, **options) -> str:
    """Scored reports (one per submission) as text in `format`: csv, json, junit, gradescope, or the import file of
    an LMS (canvas, moodle, blackboard).

    options: for gradescope, `visibility` and `step_visibility` (see gradescope.to_gradescope); for an LMS,
    `assignment` (see lms.to_lms).
    """
    from . import formats, gradescope, lms

    if format == "gradescope":
        return gradescope.to_gradescope(graded, **options)
    if format in lms.LMS_FORMATS:
        return lms.to_lms(graded, format, **options)
    return {"csv": formats.to_csv, "json": formats.to_json, "junit": formats.to_junit}[format](graded)


__all__ = ["ANSI", "COLOURS", "FORMATS", "GLYPHS", "MARKS", "render"]
