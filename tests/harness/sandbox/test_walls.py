"""walls.enter: any process (the grader's agent child, say) climbs the same ladder with one call and learns the level."""

import json
import subprocess
import sys
import tempfile

import pytest

from tests.paths import ROOT

ENTER = """
import json, os, sys
sys.path.insert(0, {sandbox!r})
import walls
reached = walls.enter({asked!r}, mountpoint={mountpoint!r}, workdir="/work")
print(json.dumps({{"level": reached["level"], "via": reached["via"], "uid": os.getuid(), "pid": os.getpid(),
                  "sees_project": os.path.exists({project!r}), "cwd": os.getcwd()}}), flush=True)
"""


@pytest.mark.parametrize("asked", ["auto", "process"])
def test_one_call_puts_up_the_strongest_level_asked_for_and_says_which(asked):
    with tempfile.TemporaryDirectory() as mountpoint:
        code = ENTER.format(sandbox=str(ROOT / "harness" / "sandbox"), asked=asked, mountpoint=mountpoint,
                            project=str(ROOT / "harness" / "tasks.py"))
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    if asked == "process":
        assert facts["level"] == "process"
    elif facts["level"] == "namespaces":
        assert facts["pid"] == 1 and facts["uid"] != 0 and facts["cwd"] == "/work"
        assert not facts["sees_project"]
    else:
        assert facts["level"] in ("user", "process")
