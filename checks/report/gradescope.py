"""Gradescope's results.json for one scored report, as its autograder specification has it: one test per step, the
checks as `:)`/`:(` lines in plain text, the check-by-check verdict in `extra_data`, and the isolation in force.

Every text field is declared "text", so Gradescope shows `<module>` or `<lambda>` in a message as written instead of
reading it as HTML.
"""

from __future__ import annotations

import json

from ..engine import FAILED, PASSED
from .marks import MARKS

VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")  # Gradescope's four
TEXT = "text"  # Gradescope's plain-text format for a string field
ISOLATION = {
    "namespaces": "your agent ran walled off: as user nobody, with no network and a read-only view of the lab",
    "process": "your agent ran in its own processes with limits, without namespaces (this machine allows no more)",
}
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
    """The step's checks as `spec2code check` prints them: one line each, message and hint under a failure."""
    waiting = result["status"] not in (PASSED, FAILED)  # not started or blocked: one reason for all checks
    lines = [result["checks"][0]["message"]] if waiting and result["checks"] else []
    if result.get("credited"):
        lines.append(f"({result['credited']})")
    for check in result["checks"]:
        lines.append(f"{MARKS.get(check['status'], ':|')} {check['description']}")
        if not waiting and check["status"] != PASSED and check["message"]:
            lines += [f"    {line}" for line in check["message"].splitlines()]
        if check["status"] == FAILED and check["hint"]:
            lines.append(f"    hint: {check['hint']}")
    return "\n".join(lines)


def _output(one: dict) -> str:
    passed = sum(r["status"] == PASSED for r in one["steps"])
    lines = [f"{passed}/{len(one['steps'])} steps passed: {one['score']}/{one['max_score']} points."]
    if one["note"]:
        lines.append(one["note"])
    lines.append(AGAIN)
    level = one.get("isolation", "unknown")
    lines.append(f"Isolation: {level} ({ISOLATION.get(level, 'the level could not be read')}).")
    return "\n".join(lines)
