"""A Gradescope autograder zip, built by the lab: setup.sh and run_autograder at the root, beside the lab's
grading-only wheel, following Gradescope's autograder specification (the zip is unpacked into /autograder/source).

    build(points=(2, 2, 2, 2, 2), partial=True)   # -> the zip's bytes
"""

from __future__ import annotations

import io
import json
import shlex
import zipfile
from dataclasses import dataclass

from ..grading import number
from ..report.gradescope import shown_now
from ..runner import CannotStart
from ..steps import STEPS
from . import scripts, wheel

TIME_LIMIT = 300  # seconds run_autograder lets grading take (a hanging agent.py takes about 40 s to grade)
STAMP = (1980, 1, 1, 0, 0, 0)
LAST_RESORT = {"score": 0, "output": "The autograder stopped before it could write a result: tell your instructor.",
               "output_format": "text"}  # written by the shell itself if even Python cannot write results.json


@dataclass(frozen=True)
class Options:
    """How the zip grades: points per step, partial credit, who sees what when, and the time limit."""

    points: tuple = (1.0,) * len(STEPS)
    partial: bool = False
    credit_blocked: bool = False
    visibility: str = "visible"
    step_visibility: tuple | None = None
    time_limit: int = TIME_LIMIT

    def arguments(self) -> list[str]:
        """The `spec2code grade` options run_autograder passes."""
        args = ["--points", ",".join(str(number(p)) for p in self.points), "--visibility", self.visibility]
        if self.step_visibility:
            args += ["--step-visibility", ",".join(self.step_visibility)]
        if self.partial:
            args.append("--partial")
        if self.credit_blocked:
            args.append("--credit-blocked")
        return args

    def description(self) -> str:
        """One line saying how the zip grades, for the instructor and the script's header."""
        points = ", ".join(f"step {s.number} {number(p)}" for s, p in zip(STEPS, self.points))
        credit = "partial credit per check" if self.partial else "all or nothing per step"
        blocked = "blocked steps graded anyway" if self.credit_blocked else "a blocked step scores 0"
        return f"{points} (out of {number(sum(self.points))}); {credit}; {blocked}; visibility {self.visibility}"

    def not_shown(self) -> str:
        """What students do not see at once, when a step is not shown as soon as it is graded ('' if all are):
        Gradescope then hides their total too, and the summary they see leaves those steps out."""
        later = [s.number for s, seen in zip(STEPS, shown_now(self.visibility, self.step_visibility)) if not seen]
        if not later:
            return ""
        steps = f"step {later[0]}" if len(later) == 1 else \
            f"steps {', '.join(map(str, later[:-1]))} and {later[-1]}"
        return (f"Students do not see {steps} until released, nor their total: hidden points also hide the total "
                f"(Gradescope shows no total while a test is hidden), and the summary they see leaves {steps} out.")


def build(options: Options = Options()) -> bytes:
    """The autograder zip's bytes: setup.sh, run_autograder and the lab's wheel, at the root."""
    files = {
        "setup.sh": scripts.SETUP.replace("@WHEEL@", wheel.filename()),
        "run_autograder": _run_autograder(options),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            _add(archive, name, text.encode("utf-8"), 0o755)
        _add(archive, wheel.filename(), wheel.build(), 0o644)
    return buffer.getvalue()


def _run_autograder(options: Options) -> str:
    tests = [{"name": f"Step {s.number} ({s.function}): {s.title}", "number": str(s.number),
              "max_score": number(p)} for s, p in zip(STEPS, options.points)]
    if options.step_visibility:
        for test, visibility in zip(tests, options.step_visibility):
            test["visibility"] = visibility
    return (scripts.RUN
            .replace("@DESCRIPTION@", options.description())
            .replace("@LIMIT@", str(int(options.time_limit)))
            .replace("@CANNOT_START@", str(CannotStart.exit_status))
            .replace("@OPTIONS@", " ".join(shlex.quote(a) for a in options.arguments()))
            .replace("@TESTS@", repr(tests))
            .replace("@VISIBILITY@", repr(options.visibility))
            .replace("@LAST_RESORT@", json.dumps(LAST_RESORT)))


def _add(archive: zipfile.ZipFile, name: str, data: bytes, mode: int) -> None:
    entry = zipfile.ZipInfo(name, STAMP)
    entry.external_attr = (0o100000 | mode) << 16  # a regular file; run_autograder and setup.sh executable
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data)
