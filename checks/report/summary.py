"""The few lines `spec2code grade` prints for the instructor when it is done: how many, how well, how fast, and
what was left aside."""

from __future__ import annotations

import statistics
from pathlib import Path

from harness.text import clean

from ..engine import PASSED
from ..grading import did_not_load, number
from ..steps import STEPS
from .class_stats import alike

LISTED = 8  # names listed on one line before "and N more"
SLOWEST = 3  # submissions named as the slowest


def summary(graded: list[dict], *, seconds: float, jobs: int, out: Path | None = None, found=None,
            left_out: list[str] = ()) -> str:
    """A few lines for the instructor: how many, the mean score, each step's pass rate, the slowest, what did not
    load, the pairs alike, the isolation in force, (given a submissions.Survey) the layout read and what was left
    aside, and the submissions `left_out` of an LMS's import file."""
    count = len(graded)
    most = graded[0]["max_score"] if graded else 0
    mean = statistics.fmean(one["score"] for one in graded) if graded else 0.0
    at_once = f" ({min(jobs, count)} at a time)" if count > 1 else ""
    scored = f"mean score {mean:.2f}/{number(most)}" if count != 1 else f"score {number(mean)}/{number(most)}"
    lines = [f"Graded {count} submission{'s' if count != 1 else ''} in {seconds:.1f} s{at_once}: {scored}"]
    for current in STEPS:
        passed = sum(r["status"] == PASSED for one in graded for r in one["steps"] if r["step"] == current.number)
        rate = 100 * passed / count if count else 0
        lines.append(f"  step {current.number} {current.function:<14} passed by {passed}/{count} ({rate:.0f}%)")
    if count > 1:
        slow = sorted(graded, key=lambda one: -one["seconds"])[:SLOWEST]
        lines.append("  slowest: " + ", ".join(f"{one['submission']} {one['seconds']:.1f} s" for one in slow))
    unloaded = [one["submission"] for one in graded if did_not_load(one)]
    if unloaded:
        lines.append(f"  not graded (missing, did not load): {listed(unloaded)}")
    credited = sum(1 for one in graded for r in one["steps"] if r.get("credited"))
    if credited:
        lines.append(f"  blocked steps graded anyway (--credit-blocked): {credited}")
    pairs = alike(graded)
    if pairs:
        lines.append("  alike, for a person to look at (no score changed): "
                     + listed([f"{a} and {b} {figure:.0%}" for a, b, figure in pairs]))
    levels = sorted({one.get("isolation", "unknown") for one in graded})
    if levels:
        lines.append(f"  isolation: {', '.join(levels)} (see 'The sandbox' in the README)")
    if found is not None:
        lines += _found(found)
    if left_out:
        lines.append(f"  left out of the import file, as no export of that LMS gave their id: {listed(left_out)}")
    if out is not None:
        lines.append(f"Wrote {out}")
    return "\n".join(lines)


def _found(found) -> list[str]:
    lines = []
    platforms = [layout for layout in found.layouts if layout != "folders"]
    if platforms:
        lines.append(f"  read as an export of {', '.join(dict.fromkeys(platforms))}")
    if found.skipped:
        lines.append(f"  older attempts not graded: {listed(found.skipped)}")
    if found.stray:
        lines.append(f"  not a submission, left aside: {listed(found.stray)}")
    if found.problems:
        lines.append(f"  left out of zips: {listed(found.problems)}")
    return lines


def listed(names: list[str]) -> str:
    """Names joined with commas, the first few only, then "and N more" (each made safe to print)."""
    return ", ".join(clean(name) for name in names[:LISTED]) + (f" and {len(names) - LISTED} more" if len(names) > LISTED else "")
