"""A class of references, attackers and a link to a classmate's file, graded twice (one at a time, then two at a
time): every reference earns 5/5, every attacker at most what its honest work earns, the link a row of its own with
nothing, nothing of theirs is left running, and both CSVs are the same."""

import csv
import io
import os
import shutil
import time
import uuid
from pathlib import Path

import pytest

from checks import grade_command
from harness.sandbox import slots
from tests.helpers import self_contained
from tests.paths import AGENTS, REFERENCE_AGENT, ROOT

pytestmark = [
    pytest.mark.slow,  # grades a class of 12, twice
    pytest.mark.alone,  # counts the agents' processes left on the whole machine: no other test may grade meanwhile
]

# What each attacker may earn at most: the steps it does honestly (its attack harms only itself, if anyone).
AT_MOST = {
    "kill_everyone": 5,  # its kill(-1) reaches only what its own user (and namespace) runs
    "daemon": 5,  # its daemon outlives nothing and reaches nobody
    "process_flood": 5,
    "tracer": 5,
    "copycat": 0,  # finds no classmate's file to run: nothing of its own
    "slow_prompt": 3,  # its 8 MB prompt is refused: step 2 fails, step 4 is blocked
    "endless_runs": 4,  # its endless runs are cut off: step 5 fails
    "poisons_the_memory": 5,  # its failed runs are remembered for no one
    "rewrites_results": 5,  # its daemon finds no results.json it may write
}
LINKED = "mallory"  # hands in a link to alice's agent.py: not followed out of mallory's folder
REFERENCES = ("alice", "bob", "carol", "dan")


@pytest.fixture(scope="module")
def class_folder():
    """The class folder inside the project, as the README's own example has it (classmates side by side)."""
    folder = ROOT / ".cache" / f"test-class-{uuid.uuid4().hex[:8]}" / "class"
    for name in REFERENCES:
        (folder / name).mkdir(parents=True)
        shutil.copy(REFERENCE_AGENT, folder / name / "agent.py")
    for name in AT_MOST:
        self_contained(AGENTS / "attacking" / f"{name}.py", folder / name).rename(folder / name / "agent.py")
    (folder / LINKED).mkdir()
    (folder / LINKED / "agent.py").symlink_to(Path("..") / REFERENCES[0] / "agent.py")
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


def grade(folder, jobs: int, out) -> dict:
    os.environ["SPEC2CODE_SEED"] = "20261201"  # one draw for both gradings, so their CSVs can be compared
    try:
        assert grade_command.main([str(folder), "--format", "csv", "--out", str(out), "--jobs", str(jobs)]) == 0
    finally:
        del os.environ["SPEC2CODE_SEED"]
    return {row["submission"]: row for row in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))}


def left_running() -> dict:
    """The processes an agent's child started that still run (an attacker's daemon, sleepers): processes of the
    reserved users forked from the agent runner's child. (The sandbox keeps warm spare processes of its own.)"""
    reserved = range(slots.FIRST_UID, slots.FIRST_UID + 2 * slots.SLOTS)
    deadline, alive = time.monotonic() + 10, {}
    while time.monotonic() < deadline:
        alive = {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                uid = os.stat(f"/proc/{pid}").st_uid
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    command = f.read()
            except OSError:
                continue
            if uid in reserved and b"checks/runner" in command:
                alive[int(pid)] = command.replace(b"\0", b" ").decode(errors="replace")
        if not alive:
            return alive
        time.sleep(0.5)
    return alive


@pytest.mark.skipif(os.geteuid() != 0, reason="the class's children get users of their own only as root")
def test_no_submission_changes_another_grade_or_its_own_beyond_its_work(class_folder, tmp_path):
    one_at_a_time = grade(class_folder, 1, tmp_path / "jobs1.csv")
    assert left_running() == {}
    two_at_a_time = grade(class_folder, 2, tmp_path / "jobs2.csv")
    assert left_running() == {}
    for name in REFERENCES:
        assert one_at_a_time[name]["total"] == "5", (name, one_at_a_time[name]["notes"])
    for name, most in AT_MOST.items():
        assert float(one_at_a_time[name]["total"]) <= most, (name, one_at_a_time[name])
    assert one_at_a_time[LINKED]["total"] == "0" and "link to a file outside" in one_at_a_time[LINKED]["notes"]
    assert len(one_at_a_time) == len(REFERENCES) + len(AT_MOST) + 1  # no row dropped
    assert (tmp_path / "jobs1.csv").read_text() == (tmp_path / "jobs2.csv").read_text()
    assert "FORGED" not in (tmp_path / "jobs1.csv").read_text() and not os.path.exists("/tmp/spec2code-attack-daemon")
