"""checks/report/formats.py: exports that strict consumers accept: JUnit against junit-10.xsd, CSV through pandas."""

import io
import os
import xml.etree.ElementTree as ET

import pytest

from checks.report import formats
from checks.steps import STEPS
from tests.schemas import junit_schema

xmlschema = pytest.importorskip("xmlschema", reason="install the dev extra: pip install -e '.[dev]'")
pandas = pytest.importorskip("pandas", reason="install the dev extra: pip install -e '.[dev]'")

SCHEMA = junit_schema()  # the Jenkins xUnit plugin's schema (see tests/schemas.py)


def scored(name: str, statuses=("passed",) * 5, *, note="", seconds=0.11, student_id="") -> dict:
    """A scored report as grading makes one, with one check per step in the given statuses."""
    steps = []
    for current, status in zip(STEPS, statuses):
        message = {"failed": "expected 'x', got 'y' <module>", "not started": "not started: still a stub",
                   "blocked": "blocked until step 1 (extract_code) passes"}.get(status, "")
        steps.append({"step": current.number, "name": current.function, "title": current.title, "status": status,
                      "checks": [{"name": "one", "description": "does one thing", "status": status,
                                  "message": message, "hint": "try again" if status == "failed" else ""}],
                      "score": int(status == "passed"), "max_score": 1})
    return {"submission": name, "student": name, "student_id": student_id, "agent": f"{name}/agent.py",
            "steps": steps, "passed": statuses.count("passed"), "total": 5, "score": statuses.count("passed"),
            "max_score": 5, "note": note, "seconds": seconds, "isolation": "namespaces"}


KINDS = [
    scored("all passed"),
    scored("s2", ("failed", "blocked", "blocked", "blocked", "passed"), note="step 1 (extract_code): ..."),
    scored("s10", ("not started",) * 5, note="step 1 (extract_code) not started", seconds=1234.5),
    scored("messy <&> ]]> \"quote\"", ("failed",) * 5, seconds=0.0),
    scored(os.fsdecode(b"caf\xe9").encode("utf-8", "backslashreplace").decode(), seconds=12),
]


def test_every_junit_export_is_valid_against_junit_10_xsd():
    schema = xmlschema.XMLSchema(str(SCHEMA))
    for graded in ([], KINDS[:1], KINDS):
        schema.validate(formats.to_junit(graded))  # raises, naming the element and attribute at fault


def test_junit_testsuites_carries_no_skipped_count_but_each_testsuite_does():
    root = ET.fromstring(formats.to_junit(KINDS).encode("utf-8"))
    assert "skipped" not in root.attrib
    assert [suite.get("skipped") for suite in root] == ["0", "3", "5", "0", "0"]


def test_csv_reads_back_one_row_per_submission_in_pandas_whatever_the_names():
    names = [f"student {n}" for n in range(14)] + [
        "carriage\rreturn", "new\nline", "both\r\nends", 'say "hi", twice', "=HYPERLINK(\"http://x\",\"y\")",
        "+1 cmd", "-2+3", "@SUM(A1)",
    ]
    graded = [scored(name, student_id=str(n)) for n, name in enumerate(names)]
    assert len(graded) == 22
    table = pandas.read_csv(io.StringIO(formats.to_csv(graded)), dtype=str, keep_default_na=False)
    assert len(table) == 22
    assert list(table.columns) == ["submission", "name", "id", "late", "submitted", "step1", "step2", "step3",
                                   "step4", "step5", "total", "max", "similar", "notes"]
    shown = list(table["submission"])
    assert shown[14] == "carriage\\x0dreturn" and shown[15] == "new\nline"  # a newline is kept, quoted
    assert shown[17] == 'say "hi", twice'
    for cell in shown[18:]:  # a formula is never a formula in a spreadsheet
        assert cell.startswith("'"), cell
    assert list(table["id"]) == [str(n) for n in range(22)]
