"""cgroups: a run's cgroup has its limits, is emptied and removed; where none can be made, detect says why."""

import os
import subprocess

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
