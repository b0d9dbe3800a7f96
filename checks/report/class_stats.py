"""What a class's grades say, as numbers for the class report: each step's statuses, the score distribution, the
checks most students fail (with their commonest messages), and the submissions that timed out, crashed, tried to
forge a grade or could not be graded."""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass

from harness.text import one_line

from ..engine import BLOCKED, FAILED, NOT_STARTED, PASSED
from ..grading import NOT_GRADED, did_not_load, number
from ..steps import STEPS

STATUSES = (PASSED, FAILED, BLOCKED, NOT_STARTED)
MESSAGE_LENGTH = 220  # characters of a message shown in the report
# What the lab's own messages say when agent.py took too long to load, its process ended, or it tried a forgery.
TIMED_OUT = re.compile(r"took more than [\d.]+ s")
FORGED = re.compile(r"wrote to the lab's channel|called (?:sys\.)?exit\(0?\) while loading|"
                    r"ended its process while loading \(.*code 0\)")
CRASHED = re.compile(r"ended its process|stopped talking|process exited with code|killed")
NOT_CHECKED = "not checked:"  # a check skipped when the grading ran out of time: a consequence, not a mistake
LAB_FAULT = re.compile(r"could not be graded \(|this check could not run \(")


@dataclass
class FailingCheck:
    step: int
    function: str
    description: str
    hint: str
    students: int
    messages: list[tuple[str, int]]  # the commonest messages, with how many students got each


@dataclass
class Incident:
    submission: str
    kind: str  # "timed out", "crashed", "tried to forge", "grader problem"
    where: str
    message: str


def step_statuses(graded: list[dict]) -> list[tuple[str, list[int]]]:
    """(step label, [passed, failed, blocked, not started]) for each step."""
    rows = []
    for current in STEPS:
        counts = Counter(r["status"] for one in graded for r in one["steps"] if r["step"] == current.number)
        rows.append((f"step {current.number} {current.function}", [counts[s] for s in STATUSES]))
    return rows


def score_bins(graded: list[dict]) -> list[tuple[str, int]]:
    """(label, submissions) per score: one bin per whole point up to the maximum, or ten bins for partial scores."""
    if not graded:
        return []
    most = max(one["max_score"] for one in graded)
    scores = [one["score"] for one in graded]
    if all(float(s).is_integer() for s in scores) and float(most).is_integer() and most <= 20:
        counts = Counter(int(s) for s in scores)
        return [(str(n), counts[n]) for n in range(int(most) + 1)]
    width = (most or 1) / 10
    counts = Counter(min(9, int(math.floor(s / width))) for s in scores)
    return [(f"{number(n * width)}–{number((n + 1) * width)}", counts[n]) for n in range(10)]


def headline(graded: list[dict]) -> dict:
    scores = [one["score"] for one in graded]
    most = max((one["max_score"] for one in graded), default=0)
    return {
        "count": len(graded), "max": number(most),
        "mean": statistics.fmean(scores) if scores else 0.0,
        "median": statistics.median(scores) if scores else 0.0,
        "full": sum(1 for one in graded if one["score"] == one["max_score"] and one["max_score"]),
        "zero": sum(1 for s in scores if s == 0),
        "not_graded": [one["submission"] for one in graded if did_not_load(one)],
    }


def failing_checks(graded: list[dict], limit: int = 10) -> list[FailingCheck]:
    """The checks failed by most students, counting only failures that are causes (not a file that did not load,
    a check skipped after a timeout, or one that says it follows from another)."""
    students: Counter = Counter()
    messages: dict[tuple, Counter] = {}
    about: dict[tuple, tuple] = {}
    for one in graded:
        seen = set()
        for result in one["steps"]:
            for check in result["checks"]:
                if check["status"] != FAILED or check["name"] in NOT_GRADED or check.get("follows") or \
                        check["message"].startswith(NOT_CHECKED):
                    continue  # not a mistake of its own: one earlier in the step explains it
                key = (result["step"], check["name"])
                if key in seen:
                    continue
                seen.add(key)
                students[key] += 1
                messages.setdefault(key, Counter())[one_line(check["message"], MESSAGE_LENGTH)] += 1
                about[key] = (result["name"], check["description"], check["hint"])
    ranked = sorted(students, key=lambda key: (-students[key], key))
    return [FailingCheck(key[0], about[key][0], about[key][1], about[key][2], students[key],
                         messages[key].most_common(2)) for key in ranked[:limit]]


def incidents(graded: list[dict]) -> list[Incident]:
    """Submissions that timed out, crashed, tried to forge a grade, or met a problem in the grader: one line for
    each kind a submission hit, at the first step where it happened."""
    found = []
    for one in graded:
        kinds = set()
        for said in one.get("stopped", ()):  # what the walls stopped after it (a daemon): no check fails for it
            kinds.add("tried to forge")
            found.append(Incident(one["submission"], "tried to forge", "after its calls",
                                  one_line(said, MESSAGE_LENGTH)))
        for result in one["steps"]:
            for check in result["checks"]:
                if check["status"] != FAILED:
                    continue
                kind = _kind(check)
                if kind and kind not in kinds:
                    kinds.add(kind)
                    where = f"step {result['step']} ({result['name']})"
                    said = check["message"]
                    if "diagnosis" in check and check["name"] not in NOT_GRADED:  # a cause, headed by what happened
                        said = ": ".join(filter(None, [check["description"], said]))
                    found.append(Incident(one["submission"], kind, where, one_line(said, MESSAGE_LENGTH)))
    order = {"tried to forge": 0, "crashed": 1, "timed out": 2, "grader problem": 3}
    return sorted(found, key=lambda i: (order[i.kind], i.submission))


def _kind(check: dict) -> str:
    """The incident a failed check is, from its diagnosis (checks/diagnosis.py) or, for the load and forgery
    messages, its words."""
    message, diagnosed = check["message"], (check.get("diagnosis") or {}).get("kind")
    if FORGED.search(message):
        return "tried to forge"
    if diagnosed == "timed out" or TIMED_OUT.search(message):
        return "timed out"
    if LAB_FAULT.search(message):
        return "grader problem"
    if diagnosed in ("exited", "crashed") or CRASHED.search(message):
        return "crashed"
    return ""


def isolation_levels(graded: list[dict]) -> Counter:
    return Counter(one.get("isolation", "not recorded") for one in graded)


def alike(graded: list[dict]) -> list[tuple[str, str, float]]:
    """Each pair of submissions flagged as alike, once, most alike first: (name, name, similarity 0 to 1)."""
    pairs = {tuple(sorted((one["submission"], other["submission"]))): other["similarity"]
             for one in graded for other in one.get("similar", [])}
    return sorted(((a, b, figure) for (a, b), figure in pairs.items()), key=lambda pair: (-pair[2], pair[:2]))
