"""The grade files an LMS imports, written from the ids its own export gave (`spec2code grade --format canvas`):
Canvas's gradebook CSV, Moodle's assignment grading worksheet, Blackboard's Grade Center upload.

A row that LMS could not match (one not read from its export with an id: plain folders, another LMS's export, whose
ids could name other students) is left out; `unmatched` names those rows so the grading summary can say so.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from .formats import _cell

ASSIGNMENT = "Spec to Code"  # the grade column's name when none is given: a new column (a new assignment in Canvas)
CANVAS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")  # the columns Canvas's gradebook import reads
# Moodle's grading worksheet upload finds these three by name (mod/assign/feedback/offline/importgradeslib.php);
# the identifier is "Participant " and the participant id its download put in each folder's name.
MOODLE = ("Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)")
PARTICIPANT = "Participant "
BLACKBOARD = "Username"  # the one column Blackboard's upload needs to find the student
LMS_FORMATS = ("canvas", "moodle", "blackboard")


def to_lms(graded: list[dict], format: str, *, assignment: str = ASSIGNMENT, now: datetime | None = None) -> str:
    """The import file of LMS `format` (canvas, moodle or blackboard) for scored reports `graded`.

    assignment: the grade column's header (Canvas, Blackboard): an existing column's name as the LMS's own export
    writes it ('Lab 1 (4321)' in Canvas, 'Lab 1 [Total Pts: 5 Score] |4321' in Blackboard) to fill it, any other
    to make a new one. now: the time the grades were made (Moodle keeps a grade changed in it after that)."""
    rows = [one for one in graded if _matched(one, format)]
    buffer = io.StringIO()
    if format == "canvas":
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([*CANVAS, _cell(assignment)])
        writer.writerows([_cell(one["student"]), _cell(one["student_id"]), "", "", "", one["score"]] for one in rows)
    elif format == "moodle":
        stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M:%S %z")  # as PHP's strtotime reads it
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(MOODLE)
        writer.writerows([PARTICIPANT + _cell(one["student_id"]), _cell(one["student"]), one["score"],
                          one["max_score"], stamp] for one in rows)
    elif format == "blackboard":
        writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)  # Blackboard asks every cell quoted
        writer.writerow([BLACKBOARD, _cell(assignment)])
        writer.writerows([_cell(one["student_id"]), one["score"]] for one in rows)
    else:
        raise ValueError(f"{format!r} is none of {', '.join(LMS_FORMATS)}")
    return buffer.getvalue()


def unmatched(graded: list[dict], format: str) -> list[str]:
    """The submissions the import file of LMS `format` leaves out: no export of that LMS gave their id."""
    return [one["submission"] for one in graded if not _matched(one, format)]


def _matched(one: dict, format: str) -> bool:
    return bool(one.get("student_id")) and one.get("platform") == format
