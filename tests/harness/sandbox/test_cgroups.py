"""cgroups: a run's cgroup has its limits, is emptied and removed; where none can be made, detect says why."""

import json
import os
import subprocess
import sys

import pytest

from harness.sandbox import cgroups


def test_detect_gives_cgroups_or_says_why_not():
    found, why = cgroups.detect(f"spec2code-probe-{os.getpid()}")
    assert found is not None or why


def test_a_runs_cgroup_limits_its_processes_and_is_removed_with_them():
    found, why = cgroups.detect(f"spec2code-probe-{os.getpid()}")
    if not found:
        pytest.skip(why)
    paths = found.create(f"spec2code-test-{os.getpid()}")
    try:
        sleeper = subprocess.Popen(["sh", "-c", f"echo 0 > {paths[0]}/cgroup.procs && exec sleep 60"])
        for _ in range(100):
            if open(f"{paths[0]}/cgroup.procs").read().split():
                break
            subprocess.run(["sleep", "0.02"])
        if "pids" in found.parents:
            pids = os.path.join(found.parents["pids"][1], os.path.basename(paths[0]), "pids.max")
            assert open(pids).read().strip() == str(cgroups.PIDS_MAX)
    finally:
        cgroups.remove(paths)
    assert sleeper.wait(5) < 0
    assert not any(os.path.exists(p) for p in paths)


JOIN = """
import json, os, sys, threading
sys.path.insert(0, {sandbox!r})
import cgroups
stop = threading.Event()
workers = [threading.Thread(target=stop.wait) for _ in range({threads})]
for worker in workers:
    worker.start()
cgroups.join({paths!r})
print(json.dumps({{tid: open(f"/proc/self/task/{{tid}}/cgroup").read() for tid in os.listdir("/proc/self/task")}}))
stop.set()
"""


@pytest.mark.parametrize("threads", [0, 2], ids=["one thread", "three threads"])
def test_joining_moves_every_thread_of_the_process_into_each_cgroup(threads):
    """A process of one thread moves by its thread (cgroup v1), any other as a whole: no thread stays outside."""
    found, why = cgroups.detect(f"spec2code-probe-{os.getpid()}")
    if not found:
        pytest.skip(why)
    name = f"spec2code-test-{os.getpid()}-{threads}"
    paths = found.create(name)
    try:
        code = JOIN.format(sandbox=os.path.dirname(cgroups.__file__), threads=threads, paths=paths)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    finally:
        cgroups.remove(paths)
    memberships = json.loads(done.stdout)
    assert len(memberships) == threads + 1
    for lines in memberships.values():
        assert sum(line.endswith("/" + name) for line in lines.splitlines()) == len(paths), lines
