"""The formats `spec2code grade` writes from scored reports: CSV, JSON and JUnit XML (Gradescope's is gradescope.py)."""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import xml.etree.ElementTree as ET

from harness.text import clean, one_line

from ..engine import FAILED, PASSED
from ..steps import STEPS


def to_csv(graded: list[dict]) -> str:
    """One row per submission: submission, name, id, late, submitted, step1..step5, total, max, similar, notes.

    late: yes, no, or empty where the LMS's export does not say; submitted: the time it gives, if any. similar: the
    other submissions alike to this one, with how alike ('bob (97%)'), for a person to look at.

    A newline inside a cell is quoted; a carriage return (which Python's csv module leaves unquoted when rows end
    in a newline) never reaches a cell raw, so every spreadsheet and pandas reads one row per submission.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["submission", "name", "id", "late", "submitted", *(f"step{s.number}" for s in STEPS), "total",
                     "max", "similar", "notes"])
    for one in graded:
        scores = [r["score"] for r in one["steps"]]
        writer.writerow([_cell(one["submission"]), _cell(one.get("student", one["submission"])),
                         _cell(one.get("student_id", "")), late(one), _cell(one.get("submitted", "")), *scores,
                         one["score"], one["max_score"], _cell(similar_to(one)), _cell(one["note"])])
    return buffer.getvalue()


def late(one: dict) -> str:
    """'yes' or 'no' as the LMS marked the submission late, '' where its export does not say."""
    return {True: "yes", False: "no"}.get(one.get("late"), "")


def similar_to(one: dict) -> str:
    """The submissions alike to this one, as 'bob (97%), carol (85%)' ('' when none)."""
    return ", ".join(f"{other['submission']} ({other['similarity']:.0%})" for other in one.get("similar", []))


def _cell(text: str) -> str:
    """A spreadsheet cell that is never taken for a formula (a folder may be named '=HYPERLINK(...)') and holds no
    raw control character (the engine's reports hold none already; a report from elsewhere might)."""
    text = clean(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\n") else text


def to_json(graded) -> str:
    """Any report, or list of reports, as indented JSON."""
    return json.dumps(graded, indent=2, ensure_ascii=False) + "\n"


@functools.cache
def _not_xml() -> re.Pattern:
    """The characters XML 1.0 cannot hold. Compiled on first use: it took some 6 ms of every grading's start."""
    return re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def to_junit(graded: list[dict]) -> str:
    """JUnit XML: one <testsuite> per submission, one <testcase> per check; failed -> <failure>, else <skipped>."""
    text = lambda value: _not_xml().sub("\ufffd", str(value))  # noqa: E731 - characters XML 1.0 cannot hold
    root = ET.Element("testsuites", name="spec2code")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for one in graded:
        checks = [(r, c) for r in one["steps"] for c in r["checks"]]
        counts = {
            "tests": len(checks),
            "failures": sum(c["status"] == FAILED for _, c in checks),
            "skipped": sum(c["status"] not in (PASSED, FAILED) for _, c in checks),
        }
        suite = ET.SubElement(root, "testsuite", name=text(one["submission"]), errors="0", time=str(one["seconds"]),
                              **{k: str(v) for k, v in counts.items()})
        properties = ET.SubElement(suite, "properties")
        for key in ("student", "student_id", "score", "max_score", "note", "isolation", "submitted"):
            ET.SubElement(properties, "property", name=key, value=text(one.get(key, "")))
        ET.SubElement(properties, "property", name="late", value=late(one))
        ET.SubElement(properties, "property", name="similar", value=text(similar_to(one)))
        for result, check in checks:
            case = ET.SubElement(suite, "testcase", name=text(f"{check['name']}: {check['description']}"),
                                 classname=text(f"{one['submission']}.step{result['step']}_{result['name']}"))
            if check["status"] == FAILED:
                detail = check["message"] + (f"\nhint: {check['hint']}" if check["hint"] else "")
                ET.SubElement(case, "failure", message=text(one_line(check["message"], 500))).text = text(detail)
            elif check["status"] != PASSED:
                ET.SubElement(case, "skipped", message=text(check["message"] or check["status"]))
        for key in totals:
            totals[key] += counts[key]
    # <testsuites> carries no `skipped` (junit-10.xsd has none there); each <testsuite> counts its own.
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", "0")
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
