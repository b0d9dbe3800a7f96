"""Gradescope's results.json for one scored report, as its autograder specification has it: one test per step, the
checks as `:)`/`:(` lines in plain text, the check-by-check verdict in `extra_data`, and the isolation in force.

Every text field is declared "text", so Gradescope shows `<module>` or `<lambda>` in a message as written instead of
reading it as HTML.
"""

from __future__ import annotations

import json

from harness.levels import TABLE

from ..engine import BLOCKED, FAILED, NOT_STARTED, PASSED
from ..grading import first_failure, number
from ..steps import STEPS
from .marks import MARKS
from .terminal import _details, _would, waiting

VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")  # Gradescope's four
TEXT = "text"  # Gradescope's plain-text format for a string field
AGAIN = "Run `spec2code check` in your lab to see the same checks, with hints, before you submit again."


def shown_now(visibility: str = "visible", step_visibility=None) -> list[bool]:
    """For each step, whether a student sees its test as soon as it is graded (its own visibility, else the whole
    result's, is "visible"). While any is not, Gradescope hides the student's total as well."""
    return [v == "visible" for v in (step_visibility or [visibility] * len(STEPS))]


def blocked_reveals(visibility: str = "visible", step_visibility=None) -> str:
    """Why these visibilities would let a student see a step before a step it needs ('' if they do not): a blocked
    step says which step it waits for, and scores 0, so it would give away that step's failure before its release.

    A step is safe when each step it needs is visible, or it is shown with it (the same visibility), or never
    (hidden). Nothing is assumed about whether grades are published before or after the due date."""
    if not step_visibility:  # every step has the whole result's visibility
        return ""
    chosen, fixed, first = list(step_visibility), list(step_visibility), None
    for step in STEPS:
        for need in step.needs:
            if _shown_before(fixed[step.number - 1], fixed[need - 1]):
                first = first or (step.number, chosen[step.number - 1], need, chosen[need - 1])
                fixed[step.number - 1] = fixed[need - 1] if all(
                    not _shown_before(fixed[need - 1], fixed[other - 1]) for other in step.needs) else "hidden"
    if first is None:
        return ""
    step, seen, need, later = first
    return (f"step {step} would be shown ({seen}) before step {need} ({later}), which it needs: were step {need} to "
            f"fail, step {step} would be blocked and so tell students. Give a step the visibility of the steps it "
            f"needs, or hidden: for example --step-visibility {','.join(fixed)}")


def _shown_before(visibility: str, needed: str) -> bool:
    return needed != "visible" and visibility not in (needed, "hidden")


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
        "output": _output(one, shown_now(visibility, step_visibility)),
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


def _output(one: dict, shown: list[bool]) -> str:
    """The summary every student sees at once, whatever the tests' visibility: so it speaks only of the steps shown
    now, and gives the total only when every step is shown."""
    steps = [r for r, seen in zip(one["steps"], shown) if seen]
    later = [r["step"] for r, seen in zip(one["steps"], shown) if not seen]
    passed = sum(r["status"] == PASSED for r in steps)
    if not later:
        lines = [f"{passed}/{len(steps)} steps passed: {one['score']}/{one['max_score']} points."]
    elif not steps:
        lines = ["Your submission is graded: its results, and your total, are not shown yet."]
    else:
        which = f"Step {later[0]} is graded too: its result" if len(later) == 1 else \
            f"Steps {', '.join(map(str, later[:-1]))} and {later[-1]} are graded too: their results"
        lines = [f"{passed}/{len(steps)} steps shown now passed: {number(sum(r['score'] for r in steps))}/"
                 f"{number(sum(r['max_score'] for r in steps))} of their points.",
                 f"{which}, and your total, are not shown yet."]
    note = _note(one, steps)
    if note:
        lines.append(note)
    lines.append(AGAIN)
    level = one.get("isolation", "unknown")
    meaning = TABLE[level].student if level in TABLE else "the level could not be read"
    lines.append(f"Isolation: {level} ({meaning}).")
    return "\n".join(lines)


def _note(one: dict, steps: list[dict]) -> str:
    """The report's note (what the submission's files said, then its first failure), with the first failure taken
    from `steps` alone: a step not shown yet gives nothing away here."""
    note, first = one["note"], first_failure(one)
    if first and note.endswith(first):
        note = note[: -len(first)].removesuffix("; ")
    return "; ".join(filter(None, [note, first_failure({"steps": steps})]))
