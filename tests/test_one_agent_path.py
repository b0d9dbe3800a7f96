"""One fact, one home: a relative SPEC2CODE_AGENT names the same file for every surface, run from any folder."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import first_fast
from tests.paths import ROOT

AGENT = "tests/agents/forging/lookup_tables.py"  # relative to the project folder, as the README says


def run(argv, cwd):
    env = dict(os.environ, SPEC2CODE_AGENT=AGENT)
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=180)


@pytest.fixture(params=first_fast(["elsewhere", "notebooks"]))  # each starts the lab's commands in processes
def folder(request, tmp_path):
    """Another folder than the project's: an empty one, and notebooks/, where a notebook's kernel runs."""
    return tmp_path if request.param == "elsewhere" else ROOT / "notebooks"


@pytest.mark.slow
def test_check_grades_that_file(folder):
    done = run(["-m", "lab.commands", "check", "1", "--format", "json"], folder)
    assert json.loads(done.stdout)["agent"] == AGENT, done.stderr


@pytest.mark.slow
def test_the_check_cell_grades_that_file(folder):
    done = run(["-c", "from lab.jupyter import check_step; print(repr(check_step(1)))"], folder)
    assert f"Fix {AGENT}, save it" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow
def test_try_compare_and_try_it_use_that_file(folder):
    assert f"Agent: {AGENT}" in run(["-m", "lab.commands", "try"], folder).stdout
    assert f"--- yours ({AGENT}) ---" in run(["-m", "lab.commands", "compare", "1"], folder).stdout
    assert f"Agent: {AGENT}" in run([str(ROOT / "lab" / "try_it.py")], folder).stdout
