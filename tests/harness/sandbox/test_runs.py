"""A run's end: stop() returns only once its cgroups hold no task, the last ones killed and reaped meanwhile."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.paths import ROOT


@pytest.fixture
def sandbox_modules(monkeypatch):
    """runs.py and cgroups.py as the sandbox server loads them: by name, from beside each other (and gone after)."""
    loaded = set(sys.modules)
    monkeypatch.syspath_prepend(str(ROOT / "harness" / "sandbox"))
    import cgroups
    import runs
    import slots

    yield runs, cgroups, slots
    beside = str(ROOT / "harness" / "sandbox")
    for name in set(sys.modules) - loaded:
        if (getattr(sys.modules[name], "__file__", None) or "").startswith(beside):
            del sys.modules[name]


@pytest.fixture
def a_cgroup(sandbox_modules):
    _, cgroups, _ = sandbox_modules
    found, why = cgroups.detect(f"spec2code-probe-{os.getpid()}")
    if not found:
        pytest.skip(why)
    paths = found.create(f"spec2code-test-runs-{os.getpid()}")
    if not cgroups.counted(paths):
        cgroups.remove(paths)
        pytest.skip("no pids controller: a cgroup's tasks cannot be counted here")
    yield paths
    cgroups.remove(paths)


def start_in(paths) -> subprocess.Popen:
    """A child of this process, in the cgroups, sleeping."""
    moves = " && ".join(f"echo 0 > {path}/cgroup.procs" for path in paths)
    child = subprocess.Popen(["sh", "-c", f"{moves} && exec sleep 60"])
    deadline = time.monotonic() + 10
    while not all(open(f"{path}/cgroup.procs").read().split() for path in paths):
        assert time.monotonic() < deadline, "the child never joined the cgroups"
        time.sleep(0.01)
    return child


def a_run(runs, paths):
    run = object.__new__(runs.Run)  # only what the wait reads: the run's cgroups, and that its first process joined
    run.cgroups, run.joined = paths, True
    return run


def test_the_wait_reaps_until_no_task_of_the_run_is_left(sandbox_modules, a_cgroup):
    runs, cgroups, _ = sandbox_modules
    child = start_in(a_cgroup)
    os.kill(child.pid, signal.SIGKILL)
    reaped = []

    def reap():  # the server's reap: its orphans are its children, as this one is ours
        if child.poll() is not None:
            reaped.append(child.pid)

    a_run(runs, a_cgroup)._wait_until_empty(reap)
    assert cgroups.empty(a_cgroup) and reaped, "stop() would have returned with a task of the run still counted"


def test_a_task_that_outlives_the_wait_is_reported_never_ignored(sandbox_modules, a_cgroup):
    runs, _, slots = sandbox_modules
    child = start_in(a_cgroup)
    try:
        with pytest.raises(slots.Outlived, match="still alive"):
            a_run(runs, a_cgroup)._wait_until_empty(lambda: None, patience=0.2)
    finally:
        child.kill()
        child.wait(5)


def test_without_a_count_there_is_nothing_to_wait_for(sandbox_modules, tmp_path):
    runs, _, _ = sandbox_modules
    started = time.monotonic()
    a_run(runs, [str(tmp_path)])._wait_until_empty(lambda: None)  # a folder with no pids.current
    assert time.monotonic() - started < 1


@pytest.mark.parametrize("namespaces", [True, False])
def test_a_run_has_folders_on_the_disk_only_below_the_namespaces_level(sandbox_modules, tmp_path, namespaces):
    # With namespaces each side's folder is in a tmpfs of its own: a folder on the disk served nothing, and removing
    # it waited for the disk. Below that level, each side's folder is there, owned by the side's user.
    runs, _, _ = sandbox_modules
    ladder = type("Ladder", (), {"namespaces": namespaces, "own_users": False})()
    machine = runs.Machine(ladder, str(tmp_path))
    machine.cgroups = None  # no cgroups of the machine's for this
    run = machine.new_run(1)
    made = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*"))
    assert made == ([] if namespaces else ["run-1", "run-1/solution", "run-1/tests"])
    run.release()
    assert list(tmp_path.iterdir()) == []
