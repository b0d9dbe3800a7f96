"""slots and cgroups: a slot is scrubbed only once no process of its users is alive, exiting or half-dead ones too,
and a process that outlives the killing is said, never passed over in silence."""

import os
import resource
import signal
import subprocess
import sys
import time

import pytest

from harness.sandbox import cgroups, slots
from tests.processes import live

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="per-run users need root")

# The first thread ends (SYS_exit ends one thread, not the process) while a second one runs on: /proc shows the
# process as a zombie, yet code of its user still runs.
HALF_DEAD = """
import ctypes, os, platform, threading, time
threading.Thread(target=lambda: time.sleep(60)).start()
os.write(1, b"ready\\n")
ctypes.CDLL(None).syscall({"x86_64": 60, "aarch64": 93}[platform.machine()], 0)
"""
# Every process forks as fast as it can, for as long as its user's process limit lets it.
FORK_LOOP = """
import os
os.write(1, b"ready\\n")
while True:
    try:
        os.fork()
    except OSError:
        pass
"""


@pytest.fixture
def slot():
    folder = slots.lock_folder()
    if not folder:
        pytest.skip("no private folder for run locks here")
    held = slots.acquire(folder)
    yield held
    try:
        slots.scrub(held)
    finally:
        slots.release(held)


def as_user(uid: int, source: str, processes: int = 64) -> subprocess.Popen:
    """`source` run by Python as `uid`, at most `processes` processes of that user; returns once it said ready."""
    def limit():
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))

    command = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable, "-I", "-c", source]
    started = subprocess.Popen(command, stdout=subprocess.PIPE, preexec_fn=limit)
    assert started.stdout.readline() == b"ready\n"
    return started


def threads_of(uid: int) -> list[str]:
    """Every thread of the machine that still runs as `uid` (any state but zombie and dead), as "pid/tid state"."""
    def as_uid(fields):
        ids = fields.get("Uid", "").split()
        return bool(ids) and str(uid) in (ids[0], ids[2])

    return [f"{task} {fields['State']}" for task, fields in live(as_uid).items()]


def test_a_process_whose_first_thread_ended_is_alive_and_is_killed(slot):
    uid = slot.solution
    half_dead = as_user(uid, HALF_DEAD)
    deadline = time.monotonic() + 5
    while "Z" not in open(f"/proc/{half_dead.pid}/status").read().split("State:")[1][:4]:
        assert time.monotonic() < deadline, "its first thread never ended"
        time.sleep(0.01)
    assert threads_of(uid), "no thread of it runs on: the test proves nothing"
    assert slots.live_users([uid]) == {uid}
    slots.scrub(slot)
    assert threads_of(uid) == []
    assert half_dead.wait(5) == -signal.SIGKILL


@pytest.mark.slow  # two fork loops to their process limit
def test_scrubbing_a_tight_fork_loop_returns_only_once_every_process_of_it_is_gone(slot):
    uid = slot.solution
    for _ in range(2):
        loop = as_user(uid, FORK_LOOP, processes=32)
        slots.scrub(slot, shared=False)
        assert threads_of(uid) == []  # right as it returns: none alive, none still exiting
        loop.wait(5)


def test_a_process_that_outlives_the_patience_is_said_and_its_files_are_still_removed(slot):
    uid = slot.solution
    note = f"/tmp/spec2code-test-slot-outlived-{os.getpid()}"
    subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "touch", note], check=True)
    sleeper = as_user(uid, "import os, time\nos.write(1, b'ready\\n')\ntime.sleep(60)\n")
    with pytest.raises(slots.Outlived, match=f"a process of user {uid} was still alive after 0 s of killing"):
        slots.scrub(slot, patience=0)  # no time at all to kill it in
    assert not os.path.exists(note)
    slots.scrub(slot)
    assert sleeper.wait(5) == -signal.SIGKILL


def test_a_process_a_look_at_proc_misses_is_killed_all_the_same_unless_the_caller_reaped_it(slot, monkeypatch):
    """One that forks and exits while /proc is read is never seen there (in CI, two processes that kill each other
    left the survivor running): a scrub kills each user whether it was seen or not. `seen_first` trusts the look,
    for the sandbox's server, which is its runs' subreaper and has reaped them all first."""
    uid = slot.solution
    sleeper = as_user(uid, "import os, time\nos.write(1, b'ready\\n')\ntime.sleep(60)\n")
    monkeypatch.setattr(slots, "live_users", lambda uids, but=0: set())  # /proc, as a moving process leaves it
    slots.scrub(slot, shared=False, seen_first=True)
    assert sleeper.poll() is None  # trusted, the look was blind
    slots.scrub(slot, shared=False)
    assert sleeper.wait(5) == -signal.SIGKILL


def test_a_cgroup_is_empty_only_once_its_last_task_is_reaped():
    found, why = cgroups.detect(f"spec2code-probe-{os.getpid()}")
    if not found or "pids" not in found.parents:
        pytest.skip(why or "no pids cgroup here")
    paths = found.create(f"spec2code-test-reaped-{os.getpid()}")
    try:
        child = subprocess.Popen([sys.executable, "-I", "-c", "import os, sys, time\ncgroup = sys.argv[1:]\n"
                                  "[open(p + '/cgroup.procs', 'w').write('0') for p in cgroup]\n"
                                  "os.write(1, b'ready\\n')\ntime.sleep(60)\n", *paths], stdout=subprocess.PIPE)
        assert child.stdout.readline() == b"ready\n"
        assert not cgroups.empty(paths)
        child.kill()
        deadline = time.monotonic() + 5
        while "Z" not in open(f"/proc/{child.pid}/stat").read().rsplit(")", 1)[1][:3]:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # A zombie is listed in no cgroup.procs, as a task still exiting is not: neither is gone yet.
        assert not cgroups.empty(paths)
        child.wait()
        assert cgroups.empty(paths)
    finally:
        cgroups.remove(paths)


def test_a_slot_whose_users_cannot_be_killed_is_passed_over_and_left_unclean(monkeypatch):
    folder = slots.lock_folder()
    if not folder:
        pytest.skip("no private folder for run locks here")
    stuck = slots.acquire(folder)
    slots.release(stuck, scrubbed=False)  # as if its holder had died before scrubbing it
    scrub = slots.scrub

    def outlived(slot, **options):
        if slot.number == stuck.number:
            raise slots.Outlived("a process of user 1 was still alive after 5 s of killing")
        scrub(slot, **options)

    monkeypatch.setattr(slots, "scrub", outlived)
    monkeypatch.setattr(slots.random, "randrange", lambda n: stuck.number)  # the stuck slot is tried first
    taken = slots.acquire(folder)
    try:
        assert taken.number != stuck.number
        with open(f"{folder}/{stuck.number}", "rb") as f:
            assert not f.read().startswith(slots.CLEAN)  # its next holder tries to scrub it again
    finally:
        slots.release(taken)


# Two processes, from which every process of their user that they may signal gets `signal`, again and again: the
# killer too, once it is that user. (Forked once it has said ready: a second one started apart could be stopped
# before it says so.)
SIGNALLING = """
import os, signal
sent = signal.{signal}
if sent != signal.SIGKILL and sent != signal.SIGSTOP:
    signal.signal(sent, signal.SIG_IGN)
os.write(1, b"ready\\n")
os.fork()
while True:
    try:
        os.kill(-1, sent)
    except OSError:
        pass
"""


@pytest.mark.slow  # 30 rounds of SIGSTOP, about 3.5 s
@pytest.mark.parametrize("sent", ["SIGSTOP", "SIGKILL", "SIGTERM", "SIGUSR1"])
def test_processes_that_signal_whatever_they_may_neither_hang_the_scrub_nor_outlive_it(slot, sent):
    """Before, SIGSTOP left the killer stopped and the grader waiting on it for ever (in 2 of 3 tries of 30 rounds),
    and the others killed the killer every time, so the scrub said Outlived and the processes ran on."""
    uid = slot.solution
    # SIGSTOP wins only when it lands between the killer becoming their user and its first kill: try it often.
    for _ in range(30 if sent == "SIGSTOP" else 3):
        signalling = as_user(uid, SIGNALLING.format(signal=sent))
        slots.scrub(slot, shared=False)
        assert threads_of(uid) == []
        assert signalling.wait(5) == -signal.SIGKILL
