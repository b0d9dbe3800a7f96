"""`spec2code grade SUBMISSION...`: grade many agent.py files and write per-step scores for an instructor's tools.

    spec2code grade submissions/ --out grades.csv             # one row per student, scores per step
    spec2code grade submissions/ --format junit --out grades.xml
    spec2code grade class.zip --credit-blocked --out grades.csv  # a platform's export, zipped, as it came
    spec2code grade --format gradescope                       # inside Gradescope: /autograder/... in and out
    spec2code grade canvas-export.zip --format canvas --assignment "Lab 1 (4321)" --out import.csv

Each submission is graded by the engine (checks.grade_agent) in its own child process, so nothing a submission
does can change its score, another student's, or the file written: the output is written once, at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from checks.grading import DEFAULT_JOBS, grade_all
from checks.report import FORMATS, render
from checks.report.gradescope import VISIBILITIES, blocked_reveals
from checks.report.lms import ASSIGNMENT, LMS_FORMATS, unmatched
from checks.report.progress import Progress
from checks.report.summary import summary
from checks.runner import CannotStart
from checks.steps import STEPS
from checks.submissions import Scratch, survey
from checks.submissions.beside import Beside
from harness import levels
from harness.errors import UsageError
from harness.files import write_atomically

from .parsing import Parser

GRADESCOPE_SUBMISSION = "/autograder/submission"  # where Gradescope puts the student's files
GRADESCOPE_RESULTS = "/autograder/results/results.json"  # where Gradescope reads the verdict


def main(argv: list[str] | None = None) -> int:
    with Scratch() as scratch:  # zips are unpacked here, and removed when grading is done
        try:
            args = _parse(argv)
            found = survey(args.submissions, gradescope=args.format == "gradescope",
                           submission_dir=args.submission_dir, scratch=scratch)
            out = _output_path(args)
        except UsageError as exc:
            print(f"spec2code grade: {exc}", file=sys.stderr)
            return 2
        return _grade(args, found, out)


def _stubs() -> str:
    """The stubs every student starts from, left out when submissions are compared ('' if they cannot be made)."""
    from lab.stubs import render

    try:
        return render()
    except (OSError, ValueError, SyntaxError, KeyError):  # the lab installed without its reference agent
        return ""


def _grade(args, found, out: Path | None) -> int:
    started = time.monotonic()
    submissions = found.submissions
    jobs = args.jobs

    def lowered(allowed: int, why: str) -> None:
        nonlocal jobs
        jobs = allowed
        print(f"spec2code grade: grading one submission at a time, not {args.jobs}: {why}. To grade several at "
              "once, grade where the sandbox can make namespaces (see 'The sandbox' in the README).", file=sys.stderr)

    try:  # the submissions are compared for similarity beside the grading (see checks/submissions/beside.py)
        with Progress(len(submissions)) as progress, Beside(template=_stubs) as beside:
            graded = grade_all(submissions, jobs=args.jobs, timeout=args.timeout, points=args.points,
                               partial=args.partial, credit_blocked=args.credit_blocked, progress=progress,
                               task=args.task, require=args.require_isolation, prepare=beside.start,
                               lowered=lowered)
    except KeyboardInterrupt:
        print("\nspec2code grade: interrupted, nothing written", file=sys.stderr)
        return 130
    except CannotStart as exc:
        print(f"spec2code grade: {exc}", file=sys.stderr)
        return exc.exit_status
    if beside.why:
        print(f"spec2code grade: submissions not compared for similarity: {beside.why}", file=sys.stderr)
    options = {"visibility": args.visibility, "step_visibility": args.step_visibility} \
        if args.format == "gradescope" else {"assignment": args.assignment} if args.format in LMS_FORMATS else {}
    text = render(graded, args.format, **options)
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            write_atomically(out, text)
            if args.format == "gradescope":  # read back as Gradescope will: run_autograder trusts exit status 0
                json.loads(Path(out).read_text(encoding="utf-8"))
        except OSError as exc:
            print(f"spec2code grade: could not write {out}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        except ValueError as exc:
            print(f"spec2code grade: {out} was not JSON once written ({exc})", file=sys.stderr)
            return 2
    left_out = unmatched(graded, args.format) if args.format in LMS_FORMATS else []
    print(summary(graded, seconds=time.monotonic() - started, jobs=jobs, out=out, found=found,
                  left_out=left_out), file=sys.stderr)
    return 0


def _parse(argv) -> argparse.Namespace:
    parser = Parser(
        prog="spec2code grade",
        description="Grade many submissions of agent.py and write per-step scores (one point per step by default).",
        epilog="A SUBMISSION is an agent.py (or any .py file), a zip (unpacked first), a student's folder (their "
        "agent.py, Agent.py, agent (1).py, my_agent.py ..., or a copy of the repo), or a class folder: exported by "
        "Canvas, Moodle, Blackboard or GitHub Classroom (read as students, latest attempt only), or one subfolder or "
        ".py file per student. With --format gradescope and no SUBMISSION, reads /autograder/submission and writes "
        "/autograder/results/results.json. A blocked step (one whose earlier step failed) scores 0 unless "
        "--credit-blocked. --format canvas, moodle or blackboard writes the file that LMS imports (Canvas's gradebook "
        "CSV, Moodle's grading worksheet, Blackboard's Grade Center upload), with the ids its export gave. "
        "Agents alike beyond the stubs are named (CSV's similar column, JSON's similar), never scored. Exit status: "
        f"0 when grading completed (whatever the scores), 2 for a usage error, {CannotStart.exit_status} when no "
        "submission can run on this machine (nothing is written).",
    )
    parser.add_argument("submissions", nargs="*", metavar="SUBMISSION", help="agent.py files or folders")
    parser.add_argument("--format", choices=FORMATS, default="csv", help="output format (default: csv)")
    parser.add_argument("--assignment", default=ASSIGNMENT, metavar="NAME",
                        help="--format canvas or blackboard: the grade column's header, as the LMS's own grade export "
                        f"names the assignment, to fill it; any other name makes a new column (default: {ASSIGNMENT})")
    parser.add_argument("--out", metavar="PATH", help="write the output to this file (default: standard output)")
    alone = " or ".join(name for name, level in levels.TABLE.items() if level.one_at_a_time)
    parser.add_argument("--jobs", type=_positive(int), default=DEFAULT_JOBS, metavar="N",
                        help=f"submissions graded at once (default: {DEFAULT_JOBS}; one at a time at the {alone} level, "
                        "where submissions share the machine's /tmp)")
    parser.add_argument("--timeout", type=_positive(float), metavar="S",
                        help="most seconds one call of a student's function may take (default: 3, 10 for steps 4-5)")
    add_scoring_arguments(parser, gradescope_only="--format gradescope: ")
    parser.add_argument("--task", type=_task, metavar="NAME",
                        help="the task of the checks that run the lab's model in steps 2 and 4 (default: leap_year)")
    parser.add_argument("--require-isolation", choices=levels.NAMES, metavar="LEVEL",
                        help=f"refuse to grade where the walls are weaker than LEVEL: {levels.LISTED} "
                        "(default: $SPEC2CODE_REQUIRE_ISOLATION)")
    parser.add_argument("--submission-dir", default=GRADESCOPE_SUBMISSION, metavar="DIR",
                        help=f"--format gradescope, no SUBMISSION: the folder to grade ({GRADESCOPE_SUBMISSION})")
    parser.add_argument("--results", default=GRADESCOPE_RESULTS, metavar="PATH",
                        help=f"--format gradescope, no SUBMISSION, no --out: where to write ({GRADESCOPE_RESULTS})")
    return refuse_revealing_visibility(parser.parse_args(argv))


def _task(name: str):
    from harness.tasks import UnknownTask, task

    try:
        return task(name)
    except UnknownTask as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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


def _per_step(convert, noun: str, plural: str):
    """A command-line list: one value for every step, or one per step."""
    def parse(text: str) -> tuple:
        values = tuple(convert(part.strip()) for part in text.split(","))
        if len(values) == 1:
            values *= len(STEPS)
        if len(values) != len(STEPS):
            raise argparse.ArgumentTypeError(f"give one {noun} for every step, or {len(STEPS)} {plural}")
        return values

    return parse


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers") from None
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"give one number for every step, or {len(STEPS)} numbers of 0 or more")
    return value


def _visibility(text: str) -> str:
    if text not in VISIBILITIES:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(VISIBILITIES)}")
    return text


parse_points = _per_step(_number, "number", "numbers")
parse_step_visibility = _per_step(_visibility, "visibility", "visibilities")


def add_points(parser) -> None:
    """--points, as `grade` and both `spec2code autograder` platforms read it."""
    parser.add_argument("--points", type=parse_points, default=(1.0,) * len(STEPS), metavar="P[,P...]",
                        help="points per step: one number for every step, or one per step (default: 1)")


def add_scoring_arguments(parser, gradescope_only: str = "") -> None:
    """How a submission is scored and shown, as `grade` and `spec2code autograder gradescope` read it.
    `gradescope_only` starts the help of the options that only Gradescope's output uses."""
    add_points(parser)
    parser.add_argument("--partial", action="store_true",
                        help="a step scores the fraction of its checks passed (default: all or nothing)")
    parser.add_argument("--credit-blocked", action="store_true",
                        help="grade a blocked step's checks as if the steps it needs had passed (default: it scores 0)")
    parser.add_argument("--visibility", choices=VISIBILITIES, default="visible",
                        help=f"{gradescope_only}when students see the result (default: visible)")
    parser.add_argument("--step-visibility", type=parse_step_visibility, metavar="V[,V...]",
                        help=f"{gradescope_only}when students see each step's test, one for all or one per step "
                        "(default: as --visibility)")


def refuse_revealing_visibility(args: argparse.Namespace) -> argparse.Namespace:
    """The arguments, unless --step-visibility would show a step before a step it needs (a UsageError saying so)."""
    problem = blocked_reveals(args.visibility, args.step_visibility)
    if problem:
        raise UsageError(f"--step-visibility: {problem}")
    return args


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
