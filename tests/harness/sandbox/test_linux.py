"""linux: a process started for a parent that has already gone runs nothing."""

import os
import subprocess
import sys

from tests.paths import ROOT

ATTACH_TO = """
import sys
sys.path.insert(0, {sandbox!r})
import linux
linux.attach({parent})
print("ran on", flush=True)
"""


def test_a_process_whose_parent_is_gone_before_it_could_attach_runs_nothing():
    """A grader killed while its agent's process starts: that process sees it has a new parent, and ends."""
    sandbox = str(ROOT / "harness" / "sandbox")
    here = subprocess.run([sys.executable, "-c", ATTACH_TO.format(sandbox=sandbox, parent=os.getpid())],
                          capture_output=True, text=True, timeout=60)
    assert here.returncode == 0 and here.stdout == "ran on\n", here.stderr  # its parent is alive: it runs
    gone = subprocess.run([sys.executable, "-c", ATTACH_TO.format(sandbox=sandbox, parent=1)],  # not its parent
                          capture_output=True, text=True, timeout=60)
    assert gone.returncode == 137 and gone.stdout == "", gone.stderr
