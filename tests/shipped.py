"""The lab as shipped, for tests that pin it, whatever a student has done in this copy.

A student who has worked in a copy has their own lab/agent.py and notebooks with outputs. The tests that run the
stubs use a file of their own, written from the reference (`stubs_file`); the tests that pin the shipped files
themselves skip in a worked copy, with one line saying why (`worked_copy`), except under CI, where the files must
be the shipped ones and a difference is a failure.
"""

import os
from pathlib import Path

import pytest

from lab.stubs import render


def stubs_file(folder: Path) -> Path:
    """The stubs, as `spec2code reset` writes them, in `folder`/lab/agent.py (so the folder names the student)."""
    path = Path(folder) / "lab" / "agent.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    return path


def worked_copy(what: str) -> None:
    """Skip the calling test: `what` (a file a student changes as they work) is not as shipped. Under CI, fail."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not as shipped; under CI the lab must be tested as it is committed")
    pytest.skip(f"{what} holds your work, so this test of the shipped file is skipped "
                "(a fresh copy, or `git stash`, runs it)")
