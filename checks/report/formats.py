"""The formats `spec2code grade` writes from scored reports: CSV, JSON, JUnit XML and Gradescope's results.json."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET

from harness.text import one_line

from ..engine import FAILED, PASSED
from ..steps import STEPS
from .marks import MARKS


def to_csv(graded: list[dict]) -> str:
    """One row per submission: submission, step1..step5, total, max, notes."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["submission", *(f"step{s.number}" for s in STEPS), "total", "max", "notes"])
    for one in graded:
        scores = [r["score"] for r in one["steps"]]
        writer.writerow([_cell(one["submission"]), *scores, one["score"], one["max_score"], _cell(one["note"])])
    return buffer.getvalue()


def _cell(text: str) -> str:
    """A spreadsheet cell that is never taken for a formula (a folder may be named '=HYPERLINK(...)')."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def to_json(graded) -> str:
    """Any report, or list of reports, as indented JSON."""
    return json.dumps(graded, indent=2, ensure_ascii=False) + "\n"


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def to_junit(graded: list[dict]) -> str:
    """JUnit XML: one <testsuite> per submission, one <testcase> per check; failed -> <failure>, else <skipped>."""
    text = lambda value: _NOT_XML.sub("\ufffd", str(value))  # noqa: E731 - characters XML 1.0 cannot hold
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
        for key in ("score", "max_score", "note"):
            ET.SubElement(properties, "property", name=key, value=text(one[key]))
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
    root.set("tests", str(totals["tests"]))
    root.set("failures", str(totals["failures"]))
    root.set("errors", "0")
    root.set("skipped", str(totals["skipped"]))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def to_gradescope(graded: list[dict]) -> str:
    """Gradescope's results.json for one submission: one test per step, its checks' verdicts as the output."""
    (one,) = graded
    tests = []
    for result in one["steps"]:
        waiting = result["status"] not in (PASSED, FAILED)  # not started or blocked: one reason for all checks
        lines = [result["checks"][0]["message"]] if waiting and result["checks"] else []
        for check in result["checks"]:
            lines.append(f"{MARKS.get(check['status'], ':|')} {check['description']}")
            if not waiting and check["status"] != PASSED and check["message"]:
                lines += [f"    {line}" for line in check["message"].splitlines()]
            if check["status"] == FAILED and check["hint"]:
                lines.append(f"    hint: {check['hint']}")
        tests.append({
            "name": f"Step {result['step']} ({result['name']}): {result['title']}",
            "number": str(result["step"]),
            "score": result["score"],
            "max_score": result["max_score"],
            "status": "passed" if result["status"] == PASSED else "failed",
            "output": "\n".join(lines),
            "visibility": "visible",
        })
    passed = sum(r["status"] == PASSED for r in one["steps"])
    output = f"{passed}/{len(one['steps'])} steps passed."
    if one["note"]:
        output += f"\n{one['note']}"
    output += "\nRun `spec2code check` in your lab to see the same checks, with hints, before you submit again."
    results = {
        "score": one["score"],
        "execution_time": one["seconds"],
        "output": output,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }
    return json.dumps(results, indent=2, ensure_ascii=False) + "\n"
