"""A class's submissions compared for similarity in a process of their own, while the grading goes on.

Compared in the grader, they held the first grading back (about 10 ms of CPU a submission, and a second to import
copydetect with the plotting it brings), and those imports made the grader 37 MB larger: every process it forks
(the killers that scrub an agent's user below the namespaces level) copied its page tables. The comparing process reads the agents' files
as text, as the grader did: it runs none of them.

    with Beside(template=stubs) as beside:
        marked = beside.start(submissions)   # returns at once
        ...grade them...
        submissions = marked()               # each with `similar` set (as they were, `beside.why` said, if it failed)
"""

from __future__ import annotations

import json
import subprocess
import sys

from .similarity import with_similar

# What the comparing process runs: it takes the grader's own sys.path (so it imports what the grader would, however
# the lab is installed), then compares (see `compare`).
COMPARING = ("import json, sys\n"
             "given = json.load(sys.stdin)\n"
             "sys.path[:] = given['path']\n"
             "from checks.submissions.beside import compare\n"
             "compare(given)\n")


class Beside:
    """One comparison of a class, in a process of its own (see the module's docstring)."""

    def __init__(self, template=lambda: ""):
        self.template = template  # gives the source every student starts from: asked only if there is a comparison
        self.process = None
        self.why = ""  # why the submissions were not compared ('' when they were, or were not asked to be)

    def start(self, submissions: list):
        """Start comparing `submissions` (Submission: name, path); return at once a function that gives them with
        `similar` set, once the comparison has ended (see `marked`)."""
        if len(submissions) < 2:
            return lambda: submissions
        given = {"path": [entry for entry in sys.path if isinstance(entry, str)], "template": self.template(),
                 "submissions": [[one.name, None if one.path is None else str(one.path)] for one in submissions]}
        try:
            self.process = subprocess.Popen([sys.executable, "-I", "-c", COMPARING], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            with self.process.stdin as sent:
                sent.write(json.dumps(given).encode())
            self.process.stdin = None  # all said: communicate() has nothing more to send
        except OSError as exc:
            self.why = f"the comparing process could not start ({exc.strerror or exc})"
            self.stop()
        return lambda: self.marked(submissions)

    def marked(self, submissions: list) -> list:
        """`submissions` with `similar` set, once the comparison has ended; as they are if it failed (`why` says
        why)."""
        if self.process is None:
            return submissions
        out, err = self.process.communicate()
        status, self.process = self.process.returncode, None
        try:
            said = json.loads(out)
        except ValueError:
            said = {}
        said = said if isinstance(said, dict) else {}
        if "missing" in said:
            self.why = f"{said['missing']} is not installed (pip install {said['missing']})"
        elif "pairs" not in said:
            last = err.decode("utf-8", "replace").strip().splitlines()[-1:]
            self.why = f"the comparing process ended with status {status}" + (f": {last[0]}" if last else "")
        else:
            return with_similar(submissions, found=[tuple(pair) for pair in said["pairs"]])
        return submissions

    def stop(self) -> None:
        """End the comparing process if it still runs (grading interrupted). Never raises."""
        if self.process is not None:
            try:
                self.process.kill()
                self.process.communicate()
            except OSError:
                pass
            self.process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def compare(given: dict) -> None:
    """In the comparing process: the pairs alike, as JSON on stdout (or which module is missing)."""
    from pathlib import Path

    from . import Submission
    from .similarity import similar_pairs

    submissions = [Submission(name, None if path is None else Path(path)) for name, path in given["submissions"]]
    try:
        said = {"pairs": similar_pairs(submissions, template=given["template"])}
    except ImportError as exc:  # a lab installed before it needed copydetect
        said = {"missing": exc.name or "copydetect"}
    sys.stdout.write(json.dumps(said))
