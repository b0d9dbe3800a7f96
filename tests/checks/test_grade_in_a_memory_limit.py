"""A class graded in a 2 GiB memory cgroup, as in a memory-limited container: whatever one submission sends, every
row is written and the reference classmates get 5/5, at the namespaces level and at the user level."""

import csv
import io
import json
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from tests.harness.sandbox import identities
from tests.helpers import self_contained
from tests.paths import AGENTS, REFERENCE_AGENT, ROOT

LIMIT = 2 << 30  # bytes: a small container's memory
REFERENCES = ("alice", "bob", "carol", "dan")
# The attackers that spend the grader's memory. (hanging_runs spends its time, 27 s of it, which test_grade_attacks
# judges: here it only made each hostile class as slow.)
ATTACKERS = ("slow_prompt", "poisons_the_memory", "endless_runs")
ARTIFACTS = ROOT / "test-artifacts"

# An agent that asks with prompts that are not strings, 16 M characters each, fifty times in one call.
HUGE_ASKS = '''\
from solutions.agent import extract_code, holdout_check, solve, write_solution  # noqa: F401


def write_tests(spec, ask):
    for _ in range(50):
        try:
            ask(["x" * 16_000_000])
        except Exception:
            pass
    return extract_code(ask(spec))
'''
# An agent whose holdout_check runs 15 MiB of tests.
HUGE_TESTS = '''\
import harness
from solutions.agent import extract_code, solve, write_solution, write_tests  # noqa: F401


def holdout_check(solution_src):
    harness.run(solution_src, "def test_many():\\n" + "    assert 1\\n" * 1_300_000)
    return harness.run(solution_src, harness.HOLDOUT_TESTS)["failed"]
'''


def _memory_root() -> Path | None:
    """The cgroup v1 memory folder this process is in, where a group may be made; None if there is none."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            folder = Path("/sys/fs/cgroup/memory") / path.lstrip("/")
            return folder if os.access(folder, os.W_OK) else None
    return None


pytestmark = [
    pytest.mark.slow,  # grades a class twice
    pytest.mark.machine,  # attackers at the user level write in the machine's /tmp; solutions/ changes its mode
    pytest.mark.skipif(identities.need_root() is not None or identities.python() is None or _memory_root() is None,
                       reason=str(identities.need_root() or "no Python every user may run, or no cgroup v1 memory "
                                  "hierarchy to make a group in")),
]


@pytest.fixture
def memory_group():
    """A memory cgroup of 2 GiB, swap included, removed (its processes killed) afterwards."""
    group = _memory_root() / f"spec2code-test-2g-{uuid.uuid4().hex[:8]}"
    group.mkdir()
    try:
        (group / "memory.limit_in_bytes").write_text(str(LIMIT))
        if (group / "memory.memsw.limit_in_bytes").exists():
            (group / "memory.memsw.limit_in_bytes").write_text(str(LIMIT))
        yield group
    finally:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pids = (group / "cgroup.procs").read_text().split()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(int(pid), 9)
                except OSError:
                    pass
            time.sleep(0.2)
        for below in sorted((p for p in group.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
            below.rmdir()
        group.rmdir()


def _class(base: Path, hostile: bool) -> Path:
    """The reference classmates, then (hostile) an attacker of each kind that spends the grader's memory."""
    folder = base / "class"
    for name in REFERENCES:
        (folder / name).mkdir(parents=True)
        shutil.copy(REFERENCE_AGENT, folder / name / "agent.py")
    if not hostile:
        folder.chmod(0o700)
        return folder
    for name in ATTACKERS:
        self_contained(AGENTS / "attacking" / f"{name}.py", folder / name).rename(folder / name / "agent.py")
    for name, source in (("huge_asks", HUGE_ASKS), ("huge_tests", HUGE_TESTS)):
        (folder / name).mkdir()
        (base / f"{name}.py").write_text(source)
        self_contained(base / f"{name}.py", folder / name).rename(folder / name / "agent.py")
    (folder / "zed").mkdir()  # a hand-in of two candidates, one of them 24 MiB
    shutil.copy(REFERENCE_AGENT, folder / "zed" / "agent_1.py")
    (folder / "zed" / "agent_2.py").write_text("def extract_code(reply):\n    return reply\n" + "x = 1\n" * 4_000_000)
    folder.chmod(0o700)
    return folder


@pytest.mark.parametrize("kind", ["honest", "hostile"])
@pytest.mark.parametrize("level", ["namespaces", "user"])
def test_a_class_graded_in_2_gib_keeps_every_row_whatever_one_submission_sends(level, kind, memory_group, tmp_path):
    folder = _class(tmp_path, hostile=kind == "hostile")
    command = [identities.python(), "-m", "lab.commands", "grade", str(folder), "--format", "csv", "--jobs", "2"]
    if level == "user":
        command = identities.as_docker_default(command)
    joined = ["sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', str(memory_group), *command]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "SPEC2CODE_SEED": "20261202"}
    with identities.reference_made(0o700):
        done = subprocess.run(joined, cwd=identities.home(), env=env, capture_output=True, text=True, timeout=1200)
    peak = int((memory_group / "memory.max_usage_in_bytes").read_text())
    killed = dict(line.split() for line in (memory_group / "memory.oom_control").read_text().splitlines())
    ARTIFACTS.mkdir(exist_ok=True)
    figures = {"peak_bytes": peak, **killed}
    (ARTIFACTS / f"memory-limit-{level}-{kind}.json").write_text(json.dumps(figures) + "\n")  # for the notes
    assert done.returncode == 0, done.stderr
    assert f"isolation: {level}" in done.stderr, done.stderr
    rows = {row["submission"]: row for row in csv.DictReader(io.StringIO(done.stdout))}
    assert sorted(rows) == sorted(p.name for p in folder.iterdir()), rows.keys()  # every row, none dropped
    for name in REFERENCES:
        assert rows[name]["total"] == "5", (name, rows[name])
    assert int(killed.get("oom_kill", 0)) == 0 and peak < LIMIT, (peak, killed)
