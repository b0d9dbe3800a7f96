"""`spec2code grade SUBMISSION...`: grade many agent.py files and write per-step scores for an instructor's tools.

    spec2code grade submissions/ --out grades.csv             # one row per student, scores per step
    spec2code grade submissions/ --format junit --out grades.xml
    spec2code grade --format gradescope                       # inside Gradescope: /autograder/... in and out

Each submission is graded by the engine (checks.grade_agent) in its own child process, so nothing a submission
does can change its score, another student's, or the file written: the output is written once, at the end.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .engine import FAILED, NOT_STARTED, PASSED, grade_agent
from .grade_formats import FORMATS, cut_short, render, utf8_safe
from harness.settings import shown

from .steps import STEPS

DEFAULT_JOBS = min(4, os.cpu_count() or 1)  # submissions graded at once; each grading is mostly waiting on a child
GRADESCOPE_SUBMISSION = "/autograder/submission"  # where Gradescope puts the student's files
GRADESCOPE_RESULTS = "/autograder/results/results.json"  # where Gradescope reads the verdict
NOTE_LENGTH = 120  # characters of the first failure kept in a CSV note
AGENT = "agent.py"
SKIPPED_DIRS = {"__pycache__", "__MACOSX", "node_modules", "venv"}  # never a student's submission


class UsageError(Exception):
    """The command line cannot be acted on: a one-line message, exit status 2."""


@dataclass(frozen=True)
class Submission:
    """One student's work: a name for the row, the agent.py to grade (None if none was found), and a note."""

    name: str
    path: Path | None
    note: str = ""


# --- the command -------------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        raise UsageError(f"{message} (see spec2code grade --help)")


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parse(argv)
        submissions = find_submissions(args)
        out = _output_path(args)
    except UsageError as exc:
        print(f"spec2code grade: {exc}", file=sys.stderr)
        return 2
    started = time.monotonic()
    try:
        graded = grade_all(submissions, jobs=args.jobs, timeout=args.timeout, points=args.points,
                           partial=args.partial, progress=sys.stderr.isatty())
    except KeyboardInterrupt:
        print("\nspec2code grade: interrupted, nothing written", file=sys.stderr)
        return 130
    text = render(graded, args.format)
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            write_atomically(out, text)
        except OSError as exc:
            print(f"spec2code grade: could not write {out}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    print(summary(graded, seconds=time.monotonic() - started, jobs=args.jobs, out=out), file=sys.stderr)
    return 0


def _parse(argv) -> argparse.Namespace:
    parser = _Parser(
        prog="spec2code grade",
        description="Grade many submissions of agent.py and write per-step scores (one point per step by default).",
        epilog="A SUBMISSION is an agent.py (or any .py file), a student's folder (its agent.py directly inside or "
        "one level down), or a class folder: a folder without agent.py, in which each subfolder and each .py file is "
        "one submission. With --format gradescope and no SUBMISSION, reads /autograder/submission and writes "
        "/autograder/results/results.json. Exit status: 0 when grading completed (whatever the scores), 2 for "
        "a usage error.",
    )
    parser.add_argument("submissions", nargs="*", metavar="SUBMISSION", help="agent.py files or folders")
    parser.add_argument("--format", choices=FORMATS, default="csv", help="output format (default: csv)")
    parser.add_argument("--out", metavar="PATH", help="write the output to this file (default: standard output)")
    parser.add_argument("--jobs", type=_positive(int), default=DEFAULT_JOBS, metavar="N",
                        help=f"submissions graded at once (default: {DEFAULT_JOBS})")
    parser.add_argument("--timeout", type=_positive(float), metavar="S",
                        help="most seconds one call of a student's function may take (default: 3, 10 for steps 4-5)")
    parser.add_argument("--points", type=_points, default=(1.0,) * len(STEPS), metavar="P[,P...]",
                        help="points per step: one number for every step, or one per step (default: 1)")
    parser.add_argument("--partial", action="store_true",
                        help="a step scores the fraction of its checks passed (default: all or nothing)")
    parser.add_argument("--submission-dir", default=GRADESCOPE_SUBMISSION, metavar="DIR",
                        help=f"--format gradescope, no SUBMISSION: the folder to grade ({GRADESCOPE_SUBMISSION})")
    parser.add_argument("--results", default=GRADESCOPE_RESULTS, metavar="PATH",
                        help=f"--format gradescope, no SUBMISSION, no --out: where to write ({GRADESCOPE_RESULTS})")
    return parser.parse_args(argv)


def _positive(kind):
    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
        return value

    return convert


def _points(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers") from None
    if len(values) == 1:
        values *= len(STEPS)
    if len(values) != len(STEPS) or any(v < 0 or v != v for v in values):
        raise argparse.ArgumentTypeError(f"give one number for every step, or {len(STEPS)} numbers of 0 or more")
    return values


def _output_path(args) -> Path | None:
    """Where the output goes (None: standard output), checked before any grading starts."""
    chosen = args.out or (args.results if args.format == "gradescope" and not args.submissions else None)
    if chosen is None:
        return None
    path = Path(chosen).expanduser()
    if path.is_dir():
        raise UsageError(f"{chosen} is a folder: give --out a file name")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {chosen}: {folder} is not a folder you can write to")
    return path


# --- finding the submissions -------------------------------------------------------------------------------


def find_submissions(args) -> list[Submission]:
    """The submissions named on the command line, in a stable order (by name), or UsageError."""
    if args.format == "gradescope":
        if len(args.submissions) > 1:
            raise UsageError("--format gradescope grades one submission at a time: give one SUBMISSION, or none")
        folder = Path(args.submissions[0] if args.submissions else args.submission_dir).expanduser()
        if not folder.exists():
            raise UsageError(f"there is no {folder}: give the student's folder with --submission-dir")
        if folder.is_file():
            return [Submission(folder.stem, folder)]
        return [_one_folder(folder, "submission")]
    if not args.submissions:
        raise UsageError("no SUBMISSION given: name agent.py files or folders of submissions")
    found: list[Submission] = []
    for text in args.submissions:
        path = Path(text).expanduser()
        if not path.exists():
            raise UsageError(f"there is no file or folder {text}")
        if path.is_file():
            found.append(Submission(_file_name(path), path))
        elif (path / AGENT).is_file() or (path / "lab" / AGENT).is_file():
            found.append(_one_folder(path, path.resolve().name))
        else:
            entries = [e for e in _visible(path) if e.is_dir() or e.suffix == ".py"]
            if not entries:
                raise UsageError(f"no submissions found in {text}: it has no agent.py, no subfolders, no .py files")
            found += [_one_folder(e, e.name) if e.is_dir() else Submission(e.stem, e) for e in entries]
    return _unique(found)


def _one_folder(folder: Path, name: str) -> Submission:
    """A student's folder: its agent.py directly inside, else one level down (lab/ first)."""
    if (folder / AGENT).is_file():
        return Submission(name, folder / AGENT)
    below = sorted((e / AGENT for e in _visible(folder) if e.is_dir() and (e / AGENT).is_file()),
                   key=lambda p: (p.parent.name != "lab", p.parent.name))
    if not below:
        return Submission(name, None, f"no {AGENT} found in {folder.name}/ (nor one level down)")
    note = ""
    if len(below) > 1:
        note = f"{len(below)} {AGENT} files found; graded {below[0].parent.name}/{AGENT}"
    return Submission(name, below[0], note)


def _visible(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot read the folder {folder}: {exc.strerror}") from None
    return [e for e in entries if not e.name.startswith((".", "_")) and e.name not in SKIPPED_DIRS]


def _file_name(path: Path) -> str:
    """A file's submission name: its folder's for an agent.py (class/alice/agent.py is alice), else its stem."""
    resolved = path.resolve()
    if resolved.name != AGENT:
        return resolved.stem
    folder = resolved.parent
    return folder.parent.name if folder.name == "lab" and folder.parent.name else folder.name


def _unique(found: list[Submission]) -> list[Submission]:
    """Each file once; names made unique (a clash keeps the shown path); sorted by name."""
    seen, kept = set(), []
    for one in found:
        key = one.path.resolve() if one.path else ("missing", one.name, one.note)
        if key not in seen:
            seen.add(key)
            kept.append(one)
    counts: dict[str, int] = {}
    for one in kept:
        counts[one.name] = counts.get(one.name, 0) + 1
    renamed = [
        Submission(shown(one.path) if one.path else f"{one.name} ({one.note})", one.path, one.note)
        if counts[one.name] > 1 else one
        for one in kept
    ]
    return sorted(renamed, key=lambda one: (one.name.casefold(), one.name))


# --- grading -----------------------------------------------------------------------------------------------


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
            report = utf8_safe(grade_agent(submission.path, timeout=timeout))
        except Exception as exc:  # the lab failed on this one: the batch goes on, the row says why
            report = _unchecked(shown(submission.path), "graded", "the grader could run",
                                f"could not be graded ({type(exc).__name__}: {exc})",
                                "this is a problem in the lab, not in the submission: please report it")
    return score(report, submission, points or (1.0,) * len(STEPS), partial, time.monotonic() - started)


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
            return cut_short(failed["message"], NOTE_LENGTH)
        else:
            text = f"{failed['description']}: {failed['message']}"
        return cut_short(f"{label}: {text}", NOTE_LENGTH)
    return ""


def _number(value: float):
    value = round(float(value), 4)
    return int(value) if value == int(value) else value


# --- output ------------------------------------------------------------------------------------------------


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all: a temporary file beside it, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


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


if __name__ == "__main__":
    sys.exit(main())
