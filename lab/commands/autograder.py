"""`spec2code autograder gradescope|classroom`: build the autograder a class platform runs, from this lab.

    spec2code autograder gradescope --points 2 --partial     # autograder.zip, to upload to Gradescope as it is
    spec2code autograder classroom                           # .github/workflows/classroom.yml, to commit
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from checks.autograder import classroom, gradescope, wheel
from checks.grading import number
from checks.steps import STEPS
from harness.errors import UsageError
from harness.files import write_atomically

from .grade import add_points, add_scoring_arguments, refuse_revealing_visibility
from .parsing import Parser

GRADESCOPE_NEXT = """\
Next, on Gradescope: create a Programming Assignment worth {total} points, open Configure Autograder, set the Base
Image to Ubuntu 22.04 or later (the lab needs its Python 3.10 or newer: an older image fails in setup.sh), choose
"Zip file upload", upload {out} and press Update Autograder. The image builds in a few minutes; then "Test
Autograder" with solutions/agent.py (full marks) and lab/agent.py (0: every step "not started")."""
CLASSROOM_NEXT = """\
Next: commit {out} to the assignment's template repository (the lab, with lab/agent.py as the stubs) and
choose that repository for the GitHub Classroom assignment. Each push to a student's repository runs the checks;
the points ({total} in all) show in Classroom. Students can change their own repository, workflow included: for
grades that count, grade the collected repositories with `spec2code grade` or on Gradescope."""


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parse(argv)
        return args.build(args)
    except UsageError as exc:
        print(f"spec2code autograder: {exc}", file=sys.stderr)
        return 2


def _gradescope(args) -> int:
    options = gradescope.Options(points=args.points, partial=args.partial, credit_blocked=args.credit_blocked,
                                 visibility=args.visibility, step_visibility=args.step_visibility,
                                 time_limit=args.time_limit)
    out = _writable(args.out or "autograder.zip")
    data = gradescope.build(options)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        raise UsageError(f"could not write {out}: {exc.strerror or exc}") from None
    print(f"Wrote {out} ({len(data) >> 10} kB): setup.sh, run_autograder and {wheel.filename()}.")
    print(f"Grading: {options.description()}.")
    if options.not_shown():
        print(options.not_shown())
    print(GRADESCOPE_NEXT.format(total=number(sum(args.points)), out=out.name))
    return 0


def _classroom(args) -> int:
    if args.partial:
        raise UsageError("GitHub Classroom scores a step all or nothing: --partial works with Gradescope only")
    out = _writable(args.out or classroom.PATH)
    try:
        write_atomically(out, classroom.workflow(args.points, timeout=args.timeout))
    except OSError as exc:
        raise UsageError(f"could not write {out}: {exc.strerror or exc}") from None
    points = ", ".join(f"step {s.number} {number(p)}" for s, p in zip(STEPS, args.points))
    print(f"Wrote {out}: one check per step ({points}), `spec2code check N` each, then the reporter.")
    print(CLASSROOM_NEXT.format(total=number(sum(args.points)), out=out))
    return 0


def _writable(text: str) -> Path:
    path = Path(text).expanduser()
    if path.is_dir():
        raise UsageError(f"{text} is a folder: give --out a file name")
    return path


def _parse(argv) -> argparse.Namespace:
    parser = Parser(prog="spec2code autograder",
                     description="Build the autograder a class platform runs, from this lab.")
    platforms = parser.add_subparsers(dest="platform", metavar="PLATFORM", required=True)
    scope = platforms.add_parser(
        "gradescope", help="write autograder.zip for a Gradescope programming assignment",
        description="Write a Gradescope autograder zip: setup.sh, run_autograder and the lab's grading-only wheel. "
        "run_autograder grades /autograder/submission (Agent.py, agent (1).py, a repo or a zip are all found) and "
        "always writes /autograder/results/results.json. SPEC2CODE_AUTOGRADER_ROOT moves /autograder, to try the "
        "zip on your own machine.")
    scope.set_defaults(build=_gradescope)
    scope.add_argument("--out", metavar="PATH", help="the zip to write (default: autograder.zip)")
    add_scoring_arguments(scope)
    scope.add_argument("--time-limit", type=int, default=gradescope.TIME_LIMIT, metavar="S",
                       help=f"seconds grading one submission may take before a zero is written "
                       f"(default: {gradescope.TIME_LIMIT}; keep it under the assignment's own timeout)")
    room = platforms.add_parser(
        "classroom", help="write .github/workflows/classroom.yml for a GitHub Classroom assignment",
        description="Write the GitHub Classroom autograding workflow: one command-grader step per lab step "
        "running `spec2code check N`, then the grading reporter.")
    room.set_defaults(build=_classroom)
    room.add_argument("--out", metavar="PATH", help=f"the workflow to write (default: {classroom.PATH})")
    add_points(room)
    room.add_argument("--partial", action="store_true", help=argparse.SUPPRESS)  # refused, with a reason
    room.add_argument("--timeout", type=int, default=classroom.TIMEOUT, metavar="MINUTES",
                      help=f"minutes one step's check may take on the runner (default: {classroom.TIMEOUT})")
    args = parser.parse_args(argv)
    for name in ("time_limit", "timeout"):
        if getattr(args, name, 1) < 1:
            raise UsageError(f"--{name.replace('_', '-')} must be 1 or more")
    return refuse_revealing_visibility(args) if args.platform == "gradescope" else args
