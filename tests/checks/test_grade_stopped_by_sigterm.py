"""A grader stopped by SIGTERM (as `timeout` stops run_autograder on Gradescope) at the user level, in the middle of a
run that left a sleeper behind and with the agent's daemon running: once the grader has exited, no process of any
slot it held is alive, the agent's child's nor the sandbox run's, and nothing is written."""

import os
import signal
import subprocess
import time
import uuid

import pytest

from harness.sandbox import slots
from tests.harness.sandbox import identities
from tests.helpers import self_contained
from tests.processes import live

pytestmark = [
    pytest.mark.slow,  # grades one agent at the user level until it is stopped
    pytest.mark.machine,  # solutions/ changes its mode
    pytest.mark.skipif(identities.need_root() is not None or identities.python() is None,
                       reason=str(identities.need_root() or "no Python every user may run")),
]

# An agent whose first call leaves a daemon of its own (named DAEMON) and asks for a run whose solution leaves a
# sleeper (named SLEEPER) that ignores SIGTERM, then hangs: the grader is stopped while both live.
AGENT = '''
import ctypes
import os
import signal
import time

import harness
from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

SLEEPER = """
import ctypes, os, signal, time
if os.fork() == 0:
    os.setsid()
    ctypes.CDLL(None).prctl(15, b"{sleeper}", 0, 0, 0)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    time.sleep(120)
    os._exit(0)
def is_leap_year(year):
    time.sleep(120)
"""


def extract_code(reply):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, b"{daemon}", 0, 0, 0)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(120)
        os._exit(0)
    harness.run(SLEEPER, "def test_it():\\n    assert is_leap_year(2000)\\n", timeout=60)
    return reply
'''


def named(*names: str) -> dict[int, str]:
    """The processes of the sandbox's reserved users that go by one of `names` and are neither zombies nor dead."""
    reserved = range(slots.FIRST_UID, slots.FIRST_UID + 2 * slots.SLOTS)

    def wanted(fields):
        return fields.get("Name") in names and int(fields["Uid"].split()[0]) in reserved

    return {int(pid): fields["Name"] for pid, fields in live(wanted, threads=False).items()}


def test_a_grader_stopped_by_sigterm_leaves_no_process_of_any_slot_alive(tmp_path):
    tag = uuid.uuid4().hex[:8]
    daemon, sleeper = f"s2c-d-{tag}", f"s2c-s-{tag}"
    (tmp_path / "source.py").write_text(AGENT.replace("{daemon}", daemon).replace("{sleeper}", sleeper))
    agent = self_contained(tmp_path / "source.py", tmp_path / "hand-in").rename(tmp_path / "hand-in" / "agent.py")
    command = [identities.python(), "-I", "-m", "lab.commands", "grade", str(agent), "--timeout", "60",
               "--out", str(tmp_path / "grades.csv")]
    with identities.reference_made(0o700):
        grader = subprocess.Popen(identities.as_docker_default(command), cwd=identities.home(),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  start_new_session=True, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
        try:
            deadline = time.monotonic() + 120
            while set(named(daemon, sleeper).values()) != {daemon, sleeper}:
                assert grader.poll() is None and time.monotonic() < deadline, grader.stderr.read()
                time.sleep(0.05)
            os.killpg(grader.pid, signal.SIGTERM)
            try:
                grader.wait(timeout=10)  # run_autograder's timeout --kill-after=10
            except subprocess.TimeoutExpired:
                pytest.fail("the grader took more than 10 s to stop: Gradescope's timeout would kill it")
            left = named(daemon, sleeper)  # the moment the grader has exited
        finally:
            if grader.poll() is None:
                os.killpg(grader.pid, signal.SIGKILL)
                grader.wait()
            for pid in named(daemon, sleeper):  # what a failed test leaves must not sleep on for two minutes
                os.kill(pid, signal.SIGKILL)
    assert left == {}, f"alive once the grader had exited: {left}"
    assert grader.returncode == 130 and "interrupted, nothing written" in grader.stderr.read()
    assert not (tmp_path / "grades.csv").exists()
