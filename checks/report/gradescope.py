"""Gradescope's results.json for one scored report, as its autograder specification has it: one test per step, the
checks as `:)`/`:(` lines in plain text, the check-by-check verdict in `extra_data`, and the isolation in force.

Every text field is declared "text", so Gradescope shows `<module>` or `<lambda>` in a message as written instead of
reading it as HTML.
"""

from __future__ import annotations

import json

from harness.levels import TABLE

from ..engine import BLOCKED, FAILED, NOT_STARTED, PASSED
from .marks import MARKS
from .terminal import _details, _would, waiting

VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")  # Gradescope's four
TEXT = "text"  # Gradescope's plain-text format for a string field
AGAIN = "Run `spec2code check` in your lab to see the same checks, with hints, before you submit again."


def to_gradescope(graded: list[dict], *, visibility: str = "visible", step_visibility=None) -> str:
    """results.json for one submission. visibility: for the whole result; step_visibility: one per step, each
    overriding it (None: the steps follow the whole result's)."""
    (one,) = graded
    tests = []
    for index, result in enumerate(one["steps"]):
        test = {
            "name": f"Step {result['step']} ({result['name']}): {result['title']}",
            "name_format": TEXT,
            "number": str(result["step"]),
            "score": result["score"],
            "max_score": result["max_score"],
            "status": "passed" if result["status"] == PASSED else "failed",
            "output": _step_output(result),
            "output_format": TEXT,
            "extra_data": {"status": result["status"], "checks": result["checks"]},
        }
        if step_visibility is not None:
            test["visibility"] = step_visibility[index]
        tests.append(test)
    results = {
        "score": one["score"],
        "execution_time": one["seconds"],
        "output": _output(one),
        "output_format": TEXT,
        "test_output_format": TEXT,
        "test_name_format": TEXT,
        "visibility": visibility,
        "stdout_visibility": "hidden",
        "extra_data": {key: one.get(key, "") for key in
                       ("submission", "agent", "passed", "total", "max_score", "note", "isolation", "seconds")},
        "tests": tests,
    }
    return json.dumps(results, indent=2, ensure_ascii=False) + "\n"


def _step_output(result: dict) -> str:
    """The step as `spec2code check` prints it: one line per check, message and hint under a failure, and for a
    blocked step what its checks find now (no credit yet)."""
    lines = []
    if result["status"] == NOT_STARTED and result["checks"]:
        lines.append(result["checks"][0]["message"])
    elif result["status"] == BLOCKED:
        lines.append(waiting(result))
    if result.get("credited"):
        lines.append(f"({result['credited']})")
    hints: set[str] = set()
    for check in result["checks"]:
        lines.append(f"{MARKS.get(check['status'], ':|')} {check['description']}{_would(check)}")
        if check["status"] == FAILED or check.get("would") == "fail":
            lines += [line[1:] for line in _details(check, hints)]
    return "\n".join(lines)


def _output(one: dict) -> str:
    passed = sum(r["status"] == PASSED for r in one["steps"])
    lines = [f"{passed}/{len(one['steps'])} steps passed: {one['score']}/{one['max_score']} points."]
    if one["note"]:
        lines.append(one["note"])
    lines.append(AGAIN)
    level = one.get("isolation", "unknown")
    meaning = TABLE[level].student if level in TABLE else "the level could not be read"
    lines.append(f"Isolation: {level} ({meaning}).")
    return "\n".join(lines)
