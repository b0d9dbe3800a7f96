"""A class with an agent that fills the machine's /tmp and /dev/shm, graded two at a time at the user level (root with
Docker's default walls: every child and run writes in the machine's shared folders): every reference classmate
still earns 5/5, every row is written, and the grader says once why it graded one submission at a time.

The machine's own /tmp is never filled: the grading runs in a mount namespace of its own, with a small tmpfs over
/tmp and /dev/shm, and only then drops to Docker's capabilities (so the lab finds no namespaces and picks `user`)."""

import csv
import io
import os
import shutil
import subprocess
import uuid

import pytest

from tests.harness.sandbox import identities
from tests.helpers import self_contained
from tests.paths import AGENTS, REFERENCE_AGENT, ROOT

SMALL = "64m"  # the size of the private /tmp and /dev/shm: the filler fills it in a fraction of a second
FILLER = "abe"  # sorts first, so that each reference is graded while the filler is (at --jobs 2)
REFERENCES = ("alice", "bob", "carol")


def _cannot() -> str | None:
    """Why the test cannot run here, or None."""
    if identities.need_root():
        return identities.need_root()
    if not shutil.which("unshare") or not shutil.which("mount"):
        return "needs unshare and mount (Debian package util-linux)"
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        return "cannot make a mount namespace here (unshare --mount failed)"
    if identities.python() is None:
        return "no Python every user may run"
    return None


pytestmark = [
    pytest.mark.slow,  # grades a class of three at the user level
    pytest.mark.machine,  # the user level's slots and the mode of solutions/ are the machine's
    pytest.mark.skipif(_cannot() is not None, reason=str(_cannot())),
]

# Runs as root in a new mount namespace: a small tmpfs over /tmp and /dev/shm, the folders under the old /tmp that
# the grading needs (a Python every user may run, say) bound into the new one, then the command (`$@` after `--`).
PRIVATE_TMP = f"""
set -e
exec 3</tmp
mount -t tmpfs -o size={SMALL},mode=1777 spec2code-test-tmp /tmp
mount -t tmpfs -o size={SMALL},mode=1777 spec2code-test-shm /dev/shm
while [ "$1" != "--" ]; do mkdir "/tmp/$1"; mount --no-canonicalize --bind "/proc/self/fd/3/$1" "/tmp/$1"; shift; done
shift
exec 3<&-
exec "$@"
"""


def under_tmp(*paths) -> list[str]:
    """The names of the folders right under /tmp that hold `paths` (those that are there at all)."""
    tmp = os.path.realpath("/tmp")
    names = []
    for path in paths:  # a file's folder: the file may be a link out of /tmp (a virtual environment's python)
        path = os.path.realpath(path if os.path.isdir(path) else os.path.dirname(path))
        if path.startswith(tmp + os.sep):
            names.append(os.path.relpath(path, tmp).split(os.sep)[0])
    return list(dict.fromkeys(names))


@pytest.fixture
def class_folder():
    """The filler and three references, in a folder only root may read, inside the project (not under /tmp)."""
    folder = ROOT / ".cache" / f"test-disk-{uuid.uuid4().hex[:8]}" / "class"
    for name in REFERENCES:
        (folder / name).mkdir(parents=True)
        shutil.copy(REFERENCE_AGENT, folder / name / "agent.py")
    self_contained(AGENTS / "attacking" / "fills_the_disk.py", folder / FILLER).rename(folder / FILLER / "agent.py")
    folder.chmod(0o700)
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


def grade_in_a_small_tmp(folder, jobs: int):
    """`spec2code grade FOLDER --jobs N` at the user level, in a mount namespace whose /tmp and /dev/shm are small."""
    python = identities.python()
    grade = [python, "-m", "lab.commands", "grade", str(folder), "--format", "csv", "--jobs", str(jobs),
             "--timeout", "3"]
    keep = under_tmp(python, identities.home(), folder)
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", PRIVATE_TMP, "sh", *keep, "--",
               *identities.as_docker_default(grade)]
    with identities.reference_made(0o700):
        return identities.run(command, env={"SPEC2CODE_SEED": "20261203"}, timeout=600)


def test_a_submission_that_fills_the_shared_disk_lowers_no_classmates_score(class_folder):
    done = grade_in_a_small_tmp(class_folder, jobs=2)
    assert done.returncode == 0, done.stderr
    assert "isolation: user" in done.stderr, done.stderr
    rows = {row["submission"]: row for row in csv.DictReader(io.StringIO(done.stdout))}
    assert sorted(rows) == sorted([FILLER, *REFERENCES]), done.stdout  # every row, none dropped
    for name in REFERENCES:
        assert rows[name]["total"] == "5", done.stdout
    # Its own runs found no room: the disk was full while it was graded (else this test would prove nothing).
    assert rows[FILLER]["total"] != "5", done.stdout
    said = [line for line in done.stderr.splitlines() if "grading one submission at a time, not 2" in line]
    assert len(said) == 1 and "(1 at a time)" in done.stderr, done.stderr  # said once, before the grading
