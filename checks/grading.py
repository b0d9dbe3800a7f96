"""Grading a class: each submission graded by the engine in its own child, scored, and summed up for the instructor."""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from harness.settings import shown
from harness.text import clean_data, one_line

from .engine import FAILED, NOT_STARTED, PASSED, grade_agent
from .steps import STEPS
from .submissions import AGENT, Submission

DEFAULT_JOBS = min(4, os.cpu_count() or 1)  # submissions graded at once; each grading is mostly waiting on a child
NOTE_LENGTH = 120  # characters of the first failure kept in a CSV note


def grade_all(submissions, *, jobs: int = DEFAULT_JOBS, timeout=None, points=None, partial=False,
              progress=False) -> list[dict]:
    """Grade every submission (up to `jobs` at once) and return one scored report each, in the given order."""
    for current in STEPS:  # load every step's checks here, before threads share them
        current.checks()
    points = tuple(points or (1.0,) * len(STEPS))
    done = itertools.count(1)

    def one(submission: Submission) -> dict:
        report = grade_submission(submission, timeout=timeout, points=points, partial=partial)
        finished = next(done)  # one step of a shared counter: safe across threads
        if progress:
            print(f"\rgraded {finished}/{len(submissions)}", end="", file=sys.stderr, flush=True)
        return report

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        reports = list(pool.map(one, submissions))
    finally:  # on Ctrl-C, drop the submissions not started yet instead of grading them all first
        pool.shutdown(wait=True, cancel_futures=True)
    if progress:
        print("\r", end="", file=sys.stderr)
    return reports


def grade_submission(submission: Submission, *, timeout=None, points=None, partial=False) -> dict:
    """The engine's report on one submission, plus its name, scores, time and a note. Never raises."""
    started = time.monotonic()
    if submission.path is None:
        report = _unchecked(submission.name, "submitted", f"{AGENT} was submitted", submission.note,
                            f"hand in the file named {AGENT}")
    else:
        try:
            report = grade_agent(submission.path, timeout=timeout)
        except Exception as exc:  # the lab failed on this one: the batch goes on, the row says why
            report = _unchecked(shown(submission.path), "graded", "the grader could run",
                                f"could not be graded ({type(exc).__name__}: {exc})",
                                "this is a problem in the lab, not in the submission: please report it")
    scored = score(report, submission, points or (1.0,) * len(STEPS), partial, time.monotonic() - started)
    return clean_data(scored)  # a folder's name may hold anything a file system allows


def _unchecked(agent: str, name: str, description: str, message: str, hint: str) -> dict:
    """A report in the engine's shape for a submission that could not be checked: every step failed, one reason."""
    steps = [{"step": s.number, "name": s.function, "title": s.title, "status": FAILED,
              "checks": [{"name": name, "description": description, "status": FAILED, "message": message,
                          "hint": hint}]} for s in STEPS]
    return {"agent": agent, "steps": steps, "passed": 0, "total": len(steps)}


def score(report: dict, submission: Submission, points, partial: bool, seconds: float) -> dict:
    """The report with scores added: per step `score`/`max_score`, and `submission`, `score`, `max_score`, `note`."""
    for result, most in zip(report["steps"], points):
        checks = result["checks"]
        if partial and checks:
            earned = most * sum(c["status"] == PASSED for c in checks) / len(checks)
        else:
            earned = most if result["status"] == PASSED else 0.0
        result["score"], result["max_score"] = _number(earned), _number(most)
    notes = [n for n in (submission.note, first_failure(report)) if n]
    return {
        "submission": submission.name,
        **report,
        "score": _number(sum(r["score"] for r in report["steps"])),
        "max_score": _number(sum(r["max_score"] for r in report["steps"])),
        "note": "; ".join(dict.fromkeys(notes)),
        "seconds": round(seconds, 2),
    }


def first_failure(report: dict) -> str:
    """One line about the first step that did not pass ('' if all did), cut short."""
    for result in report["steps"]:
        if result["status"] == PASSED:
            continue
        label = f"step {result['step']} ({result['name']})"
        failed = next((c for c in result["checks"] if c["status"] == FAILED), None)
        if failed is None and result["status"] == NOT_STARTED:
            return f"{label} not started"
        if failed is None:
            text = result["checks"][0]["message"] if result["checks"] else result["status"]
        elif failed["name"] in ("loads", "submitted", "graded"):
            return one_line(failed["message"], NOTE_LENGTH)
        else:
            text = f"{failed['description']}: {failed['message']}"
        return one_line(f"{label}: {text}", NOTE_LENGTH)
    return ""


def _number(value: float):
    value = round(float(value), 4)
    return int(value) if value == int(value) else value




def summary(graded: list[dict], *, seconds: float, jobs: int, out: Path | None) -> str:
    """A few lines for the instructor: how many, the mean score, each step's pass rate, what did not load."""
    count = len(graded)
    most = graded[0]["max_score"] if graded else 0
    mean = statistics.fmean(one["score"] for one in graded) if graded else 0.0
    lines = [f"Graded {count} submission{'s' if count != 1 else ''} in {seconds:.1f} s ({jobs} at a time): "
             f"mean score {mean:.2f}/{_number(most)}"]
    for current in STEPS:
        passed = sum(r["status"] == PASSED for one in graded for r in one["steps"] if r["step"] == current.number)
        rate = 100 * passed / count if count else 0
        lines.append(f"  step {current.number} {current.function:<14} passed by {passed}/{count} ({rate:.0f}%)")
    unloaded = [one["submission"] for one in graded if _did_not_load(one)]
    if unloaded:
        shown_names = ", ".join(unloaded[:8]) + (f" and {len(unloaded) - 8} more" if len(unloaded) > 8 else "")
        lines.append(f"  not graded (missing, did not load): {shown_names}")
    if out is not None:
        lines.append(f"Wrote {out}")
    return "\n".join(lines)


def _did_not_load(one: dict) -> bool:
    return all(len(r["checks"]) == 1 and r["checks"][0]["name"] in ("loads", "submitted", "graded")
               for r in one["steps"])
