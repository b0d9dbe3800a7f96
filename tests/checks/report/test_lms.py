"""checks/report/lms.py: the files Canvas, Moodle and Blackboard import, read back as a spreadsheet would (pandas)
and checked against the column rules each LMS documents."""

import csv
import io
from datetime import datetime, timezone

import pytest

from checks.grading import score
from checks.report import render
from checks.report.lms import unmatched
from checks.steps import STEPS
from checks.submissions import Submission

pandas = pytest.importorskip("pandas", reason="install the dev extra: pip install -e '.[dev]'")

NOW = datetime(2026, 12, 1, 19, 30, tzinfo=timezone.utc)


def graded(*rows, platform: str) -> list[dict]:
    """Scored reports for (name, id, steps passed), as `spec2code grade` makes them from an export of `platform`."""
    out = []
    for name, student_id, passed in rows:
        steps = [{"step": s.number, "name": s.function, "title": s.title,
                  "status": "passed" if s.number <= passed else "failed", "checks": []} for s in STEPS]
        report = {"agent": name, "steps": steps, "passed": passed, "total": len(STEPS)}
        submission = Submission(name, None, "", name, student_id, platform=platform if student_id else "")
        out.append(score(report, submission, (1,) * len(STEPS), False, 0.0))
    return out


# Each LMS's rows, one with a name that looks like a formula, and one from plain folders (no id).
EXPORTS = {lms: graded(("doejane", "12345", 5), ("=cmd|' /C calc'!A0", "22222", 2), platform=lms)
           for lms in ("canvas", "moodle", "blackboard")}
FOLDERS = graded(("alice", "", 3), platform="")


def exported(lms: str) -> list[dict]:
    """A class graded from an export of `lms`, beside a folder and another LMS's export (ids that are not its)."""
    other = next(name for name in EXPORTS if name != lms)
    return EXPORTS[lms] + FOLDERS + [dict(one, submission=f"other {one['submission']}") for one in EXPORTS[other]]


def read(text: str):
    return pandas.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def test_canvas_gradebook_csv_has_its_identity_columns_and_one_assignment_column():
    """Canvas's gradebook import reads the columns of its own export: Student, ID, SIS User ID, SIS Login ID,
    Section, then one column per assignment, named as the export names it ("Lab 1 (4321)") to fill that assignment
    or by a new name to make one; a student is matched by ID, Canvas's user id, the number in each file name of its
    submissions download ("How do I import grades in the Gradebook?", Canvas Instructor Guide; Ohio State's
    "Import CSV File for Carmen Grades": student name or ID or SIS User ID, SIS Login ID, Section, assignment)."""
    table = read(render(exported("canvas"), "canvas", assignment="Lab 1 (4321)"))
    assert list(table.columns) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 1 (4321)"]
    assert table["ID"].tolist() == ["12345", "22222"]  # alice (no id) and Moodle's ids cannot be matched: left out
    assert table["Lab 1 (4321)"].astype(float).tolist() == [5, 2]
    assert table["Student"][1].startswith("'=")  # a name is never read as a formula
    assert (table[["SIS User ID", "SIS Login ID", "Section"]] == "").all().all()
    assert unmatched(exported("canvas"), "canvas") == ["alice", "other doejane", "other =cmd|' /C calc'!A0"]


def test_moodle_grading_worksheet_has_the_three_columns_its_upload_requires():
    """Moodle's "Upload grading worksheet" (assignfeedback_offline, mod/assign/feedback/offline/importgradeslib.php)
    finds the columns named "Identifier", "Grade" and "Last modified (grade)" and refuses a file without any of them;
    it strips "Participant " from the identifier to get the participant id its submissions download put in each
    folder's name, and reads the time with PHP's strtotime, keeping a grade changed in Moodle after it."""
    text = render(exported("moodle"), "moodle", now=NOW)
    table = read(text)
    assert {"Identifier", "Grade", "Last modified (grade)"} <= set(table.columns)
    assert list(table.columns) == ["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)"]
    assert table["Identifier"].tolist() == ["Participant 12345", "Participant 22222"]
    assert table["Grade"].astype(float).tolist() == [5, 2] and set(table["Maximum Grade"]) == {"5"}
    for stamp in table["Last modified (grade)"]:
        assert datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S %z") == NOW  # an ISO form strtotime reads


def test_blackboard_grade_center_upload_keys_on_username_with_every_cell_quoted():
    """Blackboard's Grade Center upload ("Uploading External Grade Center Items", Blackboard Learn help) needs a
    header row and a Username in every row (the student's key); a column without a Grade Center column id
    ("|4321") becomes a new column; in a comma-delimited file every cell is within quotation marks."""
    text = render(exported("blackboard"), "blackboard", assignment="Spec to Code")
    table = read(text)
    assert list(table.columns) == ["Username", "Spec to Code"]
    assert table["Username"].tolist() == ["12345", "22222"] and all(table["Username"] != "")
    for line in text.splitlines():
        cells = next(csv.reader([line]))
        assert line == ",".join(f'"{cell}"' for cell in cells)  # quoted, as Blackboard asks
    filled = read(render(EXPORTS["blackboard"], "blackboard", assignment="Lab 1 [Total Pts: 5 Score] |4321"))
    assert list(filled.columns)[1] == "Lab 1 [Total Pts: 5 Score] |4321"  # the existing column, by its id


def test_an_import_file_is_never_a_score_change():
    for lms, rows in EXPORTS.items():
        alike = [dict(one, similar=[{"submission": "x", "similarity": 1.0}], late=True) for one in rows]
        assert render(alike, lms, now=NOW) == render(rows, lms, now=NOW)
