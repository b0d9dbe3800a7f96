"""Grading a class: each submission graded by the engine in its own child, scored, and given a name and a note."""

from __future__ import annotations

import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from harness import levels, sandbox, settings
from harness.sandbox import isolation_level
from harness.settings import shown
from harness.text import clean_data, one_line

from . import isolation
from .define import checks_of
from .engine import BLOCKED, FAILED, NOT_STARTED, PASSED, grade_agent
from .runner import CannotStart, live, reach
from .steps import BY_NUMBER, STEPS
from .submissions import AGENT, Submission

DEFAULT_JOBS = min(4, os.cpu_count() or 1)  # submissions graded at once; each grading is mostly waiting on a child
NOTE_LENGTH = 120  # characters of the first failure kept in a CSV note
NOT_GRADED = ("loads", "submitted", "graded")  # the one check of a submission that could not be checked at all


def grade_all(submissions, *, jobs: int = DEFAULT_JOBS, timeout=None, points=None, partial=False,
              credit_blocked=False, progress=None, task=None, require=None, prepare=None,
              lowered=None) -> list[dict]:
    """Grade every submission (up to `jobs` at once) and return one scored report each, in the given order.

    progress: a report.progress.Progress told when each submission starts and ends (None: nothing is shown).
    task: the task of the checks that run the lab's model (see grade_agent). require: the weakest isolation to
    grade with (default: SPEC2CODE_REQUIRE_ISOLATION); below it, IsolationTooWeak before anything is graded. At the
    `user` level, reach.Exposed before anything is graded when a child could read the reference or a classmate's.
    prepare: a function given the submissions once the walls are known to hold, returning a function that gives them
    once they are graded, as the reports name them: the grade command compares them for similarity meanwhile
    (nothing is done for a grading that is refused), and each report's `similar` is then theirs.
    lowered: a function told `(jobs, why)` before anything is graded, when the walls here allow fewer submissions at
    once than `jobs` (see at_once).
    """
    submissions = list(submissions)
    found = isolation.require(require or settings.get("SPEC2CODE_REQUIRE_ISOLATION"))
    # Where a child has a user of its own but no namespaces, nothing it must not read may be open to such a user.
    reach.guard((found["agent"], found["sandbox"]), [s.path for s in submissions if s.path is not None])
    allowed, why = at_once(jobs, found)
    if allowed < jobs and len(submissions) > 1:
        jobs = allowed
        if lowered is not None:
            lowered(jobs, why)
    marked = prepare(submissions) if prepare is not None else None
    for current in STEPS:  # load every step's checks here, before threads share them
        checks_of(current)
    points = tuple(points or (1.0,) * len(STEPS))
    # One secret draw of the checks' inputs for the whole class (unless SPEC2CODE_SEED fixes it): every student
    # meets the same inputs, and the sandbox reuses its work on the same tests (a draw per student is ~5x slower).
    seed = settings.get("SPEC2CODE_SEED")
    seed = secrets.randbits(64) if seed is None else seed

    def one(submission: Submission) -> dict:
        if progress:
            progress.started(submission.name)
        report = grade_submission(submission, timeout=timeout, points=points, partial=partial,
                                  credit_blocked=credit_blocked, seed=seed, task=task)
        if progress:
            progress.finished(submission.name)
        return report

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        reports = list(pool.map(one, submissions))
        if marked is not None:
            for report, submission in zip(reports, marked()):
                report["similar"] = clean_data(similar_rows(submission.similar))
        return reports
    except BaseException:  # Ctrl-C or SIGTERM: end the children graded now, and the runs they asked for (each
        with live.stop_all(), sandbox.stopped():  # such run waits in a grading thread), so their threads
            pool.shutdown(wait=True, cancel_futures=True)  # finish at once, starting neither a child nor a run
        raise
    finally:  # on Ctrl-C, drop the submissions not started yet instead of grading them all first
        pool.shutdown(wait=True, cancel_futures=True)


def at_once(jobs: int, found: dict) -> tuple[int, str]:
    """How many submissions may be graded at once with the walls `found` (isolation.in_force), and why that is
    fewer than `jobs` ('' when it is not): one, where the agent's child or the sandbox shares what a submission
    could use up with its classmates (harness/levels.py's `one_at_a_time`)."""
    for level in dict.fromkeys((found["agent"], found["sandbox"])):
        why = levels.TABLE[level].one_at_a_time if level in levels.TABLE else ""
        if why and jobs > 1:
            return 1, f"at the {level} level {why}"
    return jobs, ""


def grade_submission(submission: Submission, *, timeout=None, points=None, partial=False,
                     credit_blocked=False, seed=None, task=None) -> dict:
    """The engine's report on one submission, plus its name, scores, time and a note. Never raises.

    seed: the draw of the checks' inputs (default: the engine's, SPEC2CODE_SEED or a fresh secret one)."""
    started = time.monotonic()
    if submission.path is None:
        report = _unchecked(submission.name, "submitted", f"{AGENT} was submitted", submission.note,
                            f"hand in the file named {AGENT}")
    else:
        try:
            # What the walls stopped after its children (a daemon, say): in the report, not the note, since it
            # turns on when the daemon was caught, and the same class must give the same CSV.
            with live.noting() as stopped:
                report = grade_agent(submission.path, timeout=timeout, seed=seed, task=task)
            if stopped:
                report["stopped"] = stopped
            if credit_blocked:
                report = _credit_blocked(report)
        except CannotStart:  # the machine's fault, the same for every submission: no one is scored for it
            raise
        except Exception as exc:  # the lab failed on this one: the batch goes on, the row says why
            report = _unchecked(shown(submission.path), "graded", "the grader could run",
                                f"could not be graded ({type(exc).__name__}: {exc})",
                                "this is a problem in the lab, not in the submission: please report it")
    scored = score(report, submission, points or (1.0,) * len(STEPS), partial, time.monotonic() - started)
    scored["isolation"] = report.get("isolation") or _isolation()
    return clean_data(scored)  # a folder's name may hold anything a file system allows


def _credit_blocked(report: dict) -> dict:
    """The report with each blocked step scored as if the steps it needs had passed (`--credit-blocked`).

    The engine runs a blocked step's checks anyway and says in each check's `would` whether it passes now; here
    those verdicts count, and the step says so in `credited`.
    """
    statuses = {r["step"]: r["status"] for r in report["steps"]}
    steps = []
    for result in report["steps"]:
        if result["status"] == BLOCKED and result["checks"] and all("would" in c for c in result["checks"]):
            checks = [{"name": c["name"], "description": c["description"],
                       "status": PASSED if c["would"] == "pass" else FAILED,
                       "message": c.get("would_message", ""), "hint": c.get("would_hint", ""),
                       **({"cause": True} if c.get("cause") else {})}
                      for c in result["checks"]]
            roots = [n for n in BY_NUMBER[result["step"]].needs if statuses.get(n) not in (PASSED, BLOCKED)]
            needed = " and ".join(BY_NUMBER[n].label for n in roots) or "the steps it needs"
            result = dict(result, checks=checks, status=PASSED if all(c["status"] == PASSED for c in checks)
                          else FAILED, credited=f"blocked, and graded as if {needed} had passed (--credit-blocked)")
        steps.append(result)
    return dict(report, steps=steps, passed=sum(r["status"] == PASSED for r in steps))


def _isolation() -> str:
    """The isolation level the sandbox has here, as every report states it ('unknown' if it cannot start)."""
    try:
        return isolation_level()
    except Exception:  # the grade still stands; the line saying how walled it was cannot be had
        return "unknown"


def _unchecked(agent: str, name: str, description: str, message: str, hint: str) -> dict:
    """A report in the engine's shape for a submission that could not be checked: every step failed, one reason."""
    steps = [{"step": s.number, "name": s.function, "title": s.title, "status": FAILED,
              "checks": [{"name": name, "description": description, "status": FAILED, "message": message,
                          "hint": hint}]} for s in STEPS]
    return {"agent": agent, "steps": steps, "passed": 0, "total": len(steps)}


def score(report: dict, submission: Submission, points, partial: bool, seconds: float) -> dict:
    """The report with scores added: per step `score`/`max_score`, and `submission`, `student`, `student_id`,
    `platform`, `late`, `submitted`, `similar`, `score`, `max_score`, `note` and `seconds`."""
    for result, most in zip(report["steps"], points):
        checks = [c for c in result["checks"] if not c.get("cause")]  # a failed call: listed, never counted
        if partial and checks:
            earned = most * sum(c["status"] == PASSED for c in checks) / len(checks)
        else:
            earned = most if result["status"] == PASSED else 0.0
        result["score"], result["max_score"] = number(earned), number(most)
    notes = [n for n in (submission.note, first_failure(report)) if n]
    return {
        "submission": submission.name,
        "student": submission.student or submission.name,
        "student_id": submission.student_id,
        "platform": submission.platform,
        "late": submission.late,
        "submitted": submission.submitted,
        "similar": similar_rows(submission.similar),
        **report,
        "score": number(sum(r["score"] for r in report["steps"])),
        "max_score": number(sum(r["max_score"] for r in report["steps"])),
        "note": "; ".join(dict.fromkeys(notes)),
        "seconds": round(seconds, 2),
    }


def similar_rows(similar) -> list[dict]:
    """A report's `similar`: the other submissions alike to it, from a Submission's (name, similarity) pairs."""
    return [{"submission": other, "similarity": figure} for other, figure in similar]


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
        elif failed["name"] in NOT_GRADED:
            return one_line(failed["message"], NOTE_LENGTH)
        else:
            text = ": ".join(filter(None, [failed["description"], failed["message"]]))
        return one_line(f"{label}: {text}", NOTE_LENGTH)
    return ""


def did_not_load(one: dict) -> bool:
    """True for a scored report whose submission could not be checked at all (missing, did not load)."""
    return all(len(r["checks"]) == 1 and r["checks"][0]["name"] in NOT_GRADED for r in one["steps"])


def number(value: float):
    """A score as people write it: 2, not 2.0; at most four decimals."""
    value = round(float(value), 4)
    return int(value) if value == int(value) else value
