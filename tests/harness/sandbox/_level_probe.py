"""Run as a script under another identity (see identities.py): what the sandbox gives there, as one line of JSON."""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
import harness  # noqa: E402
from harness.tasks import HOLDOUT_TESTS, LEAP_YEAR  # noqa: E402

PROBE = """
import os, resource, socket
def facts():
    out = {"uid": os.getuid(), "pid": os.getpid(), "nproc": resource.getrlimit(resource.RLIMIT_NPROC)[0]}
    try:
        socket.socket().close()
        out["socket"] = True
    except OSError:
        out["socket"] = False
    out["sees_project"] = os.path.exists(%r)
    if os.fork() == 0:
        os.setsid()
        os.execvp("sleep", ["sleep", "300", "spec2code-probe-daemon"])
    return " ".join(f"{k}={int(v)}" for k, v in out.items())
"""
TESTS = "def test_facts():\n    assert facts() == 0\n"


def facts_of(result):
    found = re.search(r"'(uid=\d+ pid=\d+ nproc=\d+ socket=\d sees_project=\d)'", result["output"])
    return dict(pair.split("=") for pair in found.group(1).split()) if found else {"output": result["output"][:500]}


started = time.monotonic()
reference = harness.run(LEAP_YEAR.reference, HOLDOUT_TESTS)
runs = [facts_of(harness.run(PROBE % os.path.abspath(harness.__file__), TESTS)) for _ in range(2)]
time.sleep(0.2)


def daemons():
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"spec2code-probe-daemon" in f.read():
                    found.append(pid)
        except OSError:  # it ended while we looked
            pass
    return found


print(json.dumps({
    "isolation": reference["isolation"], "summary": harness.sandbox.isolation_summary(),
    "lacks": harness.sandbox.isolation_lacks(), "reference": reference, "runs": runs, "daemons_left": daemons(),
    "euid": os.geteuid(),
}))
