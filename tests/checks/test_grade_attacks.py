"""A class of references, attackers and a link to a classmate's file, graded twice at once (one at a time, and two at
a time beside it): every reference earns 5/5, every attacker at most what its honest work earns, the link a row of
its own with nothing, nothing of theirs is left running, and both CSVs are the same. Then, at the user level (root
with Docker's default walls: no namespaces), an agent that hunts for the reference beside the lab and one that reads
a classmate's copy: grading refuses while the reference is open to every user, and earns them nothing once it is
not, from a checkout every user can read and from a private one."""

import csv
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.sandbox import reachable, slots
from lab.commands import grade
from tests.harness.sandbox import identities
from tests.helpers import self_contained
from tests.paths import AGENTS, REFERENCE_AGENT, ROOT

pytestmark = [
    pytest.mark.slow,  # grades a class of 12, twice
    pytest.mark.machine,  # attackers at the user level write in the machine's /tmp; solutions/ changes its mode
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
    "hanging_runs": 4,  # its runs of a hanging solution count as its own time past the allowance: step 5 times out
    "poisons_the_memory": 5,  # its failed runs are remembered for no one
    "rewrites_results": 5,  # its daemon finds no results.json it may write
    "steals_the_reference": 0,  # finds no solutions/ beside the lab: nothing of its own
    "reads_a_copy": 0,  # sees no classmate's process, so no copy to read: nothing of its own
}
LINKED = "mallory"  # hands in a link to alice's agent.py: not followed out of mallory's folder
REFERENCES = ("alice", "bob", "carol", "dan")
DAEMON_MARK = "/tmp/spec2code-attack-daemon"  # the file daemon.py writes in the machine's /tmp, where it can
CLASS_MARK = f"{DAEMON_MARK}-{uuid.uuid4().hex[:12]}"  # the one the class's daemon writes, if it ever can


def own_mark(agent: Path, mark: str) -> None:
    """Give a copy of daemon.py a file of its own to write in /tmp: another suite on this machine may grade the same
    attacker at the user level now, where its daemon writes in the machine's /tmp until its grader ends it."""
    source = agent.read_text(encoding="utf-8")
    assert DAEMON_MARK in source
    agent.write_text(source.replace(DAEMON_MARK, mark), encoding="utf-8")


@pytest.fixture(scope="module")
def class_folder():
    """The class folder inside the project, as the README's own example has it (classmates side by side)."""
    folder = ROOT / ".cache" / f"test-class-{uuid.uuid4().hex[:8]}" / "class"
    for name in REFERENCES:
        (folder / name).mkdir(parents=True)
        shutil.copy(REFERENCE_AGENT, folder / name / "agent.py")
    for name in AT_MOST:
        self_contained(AGENTS / "attacking" / f"{name}.py", folder / name).rename(folder / name / "agent.py")
    own_mark(folder / "daemon" / "agent.py", CLASS_MARK)
    (folder / LINKED).mkdir()
    (folder / LINKED / "agent.py").symlink_to(Path("..") / REFERENCES[0] / "agent.py")
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


def grade_class(folder, out, *jobs: int) -> list[dict]:
    """The class graded once with each number of jobs, all at the same time: its rows by submission, per grading."""
    os.environ["SPEC2CODE_SEED"] = "20261201"  # one draw for every grading, so their CSVs can be compared
    try:
        with ThreadPoolExecutor(len(jobs)) as pool:
            # --timeout 3: a call of steps 4-5 may take 3 s of its own, not 10, so the hanging attacker holds each
            # grading for about 19 s, not 28 (the references' calls take a fraction of a second of their own).
            codes = list(pool.map(lambda n: grade.main([str(folder), "--format", "csv", "--jobs", str(n), "--timeout",
                                                        "3", "--out", str(out / f"jobs{n}.csv")]), jobs))
    finally:
        del os.environ["SPEC2CODE_SEED"]
    assert codes == [0] * len(jobs)
    texts = [(out / f"jobs{n}.csv").read_text(encoding="utf-8") for n in jobs]
    return [{row["submission"]: row for row in csv.DictReader(io.StringIO(text))} for text in texts]


def left_running(patience: float = 10, within: Path | None = None) -> dict:
    """The processes an agent's child started that still run (an attacker's daemon, sleepers): processes of the
    reserved users forked from this lab's agent runner's child (not another checkout's, graded on the same machine),
    and only those of the agents in `within` if given (not those of another test, grading beside this one).
    (The sandbox keeps warm spare processes of its own.)"""
    reserved = range(slots.FIRST_UID, slots.FIRST_UID + 2 * slots.SLOTS)
    runner = os.fsencode(ROOT / "checks" / "runner")
    ours = os.fsencode(within) if within else b""  # a child's command names its agent's file (b"": any agent)
    deadline, alive = time.monotonic() + patience, {}
    while True:
        alive = {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                uid = os.stat(f"/proc/{pid}").st_uid
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    command = f.read()
            except OSError:
                continue
            # this checkout's runner, or the copy of it made for a child at the user level
            copy = b"spec2code-agent-" in command and b"/runner/child.py" in command  # the user level's own copy
            if uid in reserved and (runner in command or copy) and ours in command:
                alive[int(pid)] = command.replace(b"\0", b" ").decode(errors="replace")
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.5)


def seen_as(pid: int) -> str:
    """A process as /proc shows it now: its state, parent, user and command (what a test that found it left says)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if line.startswith(("State:", "PPid:", "Uid:")))
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            command = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError as exc:
        return f"gone ({exc.strerror})"
    return " ".join(f"{key} {value.split()[0]}" for key, value in fields.items()) + f" {command[:300]}"


def without_measured_seconds(csv_file: Path) -> str:
    """A CSV's text without the seconds of runs a timed-out call was counted (checks/runner/outcomes.counted_words):
    a measure of the machine's load, said only from half a second on."""
    return re.sub(r", counting [\d.]+ s of the runs it asked for", "", csv_file.read_text(encoding="utf-8"))


@pytest.mark.skipif(os.geteuid() != 0, reason="the class's children get users of their own only as root")
def test_no_submission_changes_another_grade_or_its_own_beyond_its_work(class_folder, tmp_path):
    # Side by side, so the class takes as long as its one-at-a-time grading (its hanging attacker holds each for 19 s).
    one_at_a_time, _ = grade_class(class_folder, tmp_path, 1, 2)
    assert left_running(within=class_folder) == {}
    for name in REFERENCES:
        assert one_at_a_time[name]["total"] == "5", (name, one_at_a_time[name]["notes"])
    for name, most in AT_MOST.items():
        assert float(one_at_a_time[name]["total"]) <= most, (name, one_at_a_time[name])
    assert one_at_a_time[LINKED]["total"] == "0" and "link to a file outside" in one_at_a_time[LINKED]["notes"]
    assert len(one_at_a_time) == len(REFERENCES) + len(AT_MOST) + 1  # no row dropped
    # The same rows, word for word, but for how long a stopped call's runs took: a measure of the machine's load.
    assert without_measured_seconds(tmp_path / "jobs1.csv") == without_measured_seconds(tmp_path / "jobs2.csv")
    assert "FORGED" not in (tmp_path / "jobs1.csv").read_text() and not os.path.exists(CLASS_MARK)


@pytest.mark.skipif(identities.need_root() is not None or identities.python() is None,
                    reason=str(identities.need_root() or "no Python every user may run"))
@pytest.mark.parametrize("command, says", [("grade", "interrupted, nothing written"), ("check", "Stopped.")])
def test_a_grader_stopped_by_sigterm_ends_the_daemon_it_was_grading_at_once(tmp_path, command, says,
                                                                            private_reference):
    """As `timeout` stops run_autograder on Gradescope: SIGTERM to the grader's process group, mid-grading, under
    Docker's default walls (a user of its own per child, no namespaces to take a daemon down with its child)."""
    agent = self_contained(AGENTS / "attacking" / "daemon.py", tmp_path)
    agent = agent.rename(tmp_path / f"daemon_{uuid.uuid4().hex}.py")  # a name its child and daemon run under
    own_mark(agent, f"{DAEMON_MARK}-{uuid.uuid4().hex[:12]}")  # never the file a class graded beside must not have
    theirs = agent.name.encode()

    def running() -> list[int]:
        return [int(pid) for pid, command in left_running(patience=0).items() if theirs in command.encode()]

    options = [str(agent), "--out", str(tmp_path / "grades.csv")] if command == "grade" else ["--agent", str(agent)]
    command = identities.as_docker_default([identities.python(), "-I", "-m", "lab.commands", command, *options])
    grader = subprocess.Popen(command, cwd=identities.home(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, start_new_session=True, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    try:
        deadline, seen = time.monotonic() + 120, []
        while len(seen) < 2 and grader.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # until the child and its daemon run
            seen = running()
        assert len(seen) >= 2, "the attacker's daemon never started"
        os.killpg(grader.pid, signal.SIGTERM)
        stopped = time.monotonic()
        grader.wait(timeout=30)
        took = time.monotonic() - stopped
        left = {pid: seen_as(pid) for pid in running()}  # what a failure must say: how far each one had got
    finally:
        if grader.poll() is None:
            os.killpg(grader.pid, signal.SIGKILL)
            grader.wait()
        for pid in running():  # what a failed test leaves must not run on for a minute
            os.kill(pid, signal.SIGKILL)
    said = grader.stderr.read()
    assert left == {}, (f"the attacker's daemon outlived its grader (status {grader.returncode} after {took:.1f} s): "
                        f"{left}; the grader said: {said[-2000:]}")
    assert took < 10, f"the grader took {took:.1f} s to stop"  # run_autograder's timeout --kill-after=10
    assert grader.returncode == 130 and says in said, (grader.returncode, said[-2000:])
    assert not (tmp_path / "grades.csv").exists()


# --- at the user level: root with Docker's default walls, as on Gradescope and in most containers ---------------

DOCKER = pytest.mark.skipif(identities.need_root() is not None or identities.python() is None,
                            reason=str(identities.need_root() or "no Python every user may run"))
THIEF, COPIER = "mallory", "ann"  # ann sorts beside alice, so the two are graded at the same time
BESIDE = REFERENCES[:1]  # the reference classmates of a class graded at this level: alice, graded beside ann


def user_level_class(base: Path) -> Path:
    """A class folder only root may read (mode 700): a reference, one agent that hunts for the reference beside the
    lab, one that reads the copy the grader made for a classmate graded beside it."""
    folder = base / "class"
    for name in BESIDE:
        (folder / name).mkdir(parents=True)
        shutil.copy(REFERENCE_AGENT, folder / name / "agent.py")
    for name, attacker in ((THIEF, "steals_the_reference"), (COPIER, "reads_a_copy")):
        (folder / name).mkdir()
        shutil.copy(AGENTS / "attacking" / f"{attacker}.py", folder / name / "agent.py")
    folder.chmod(0o700)
    return folder


def grade_at_user_level(folder: Path, jobs: int, *, python=None, cwd=None) -> subprocess.CompletedProcess:
    """`spec2code grade FOLDER --format csv` as root with Docker's default walls (no namespaces: the `user` level)."""
    command = [python or identities.python(), "-m", "lab.commands", "grade", str(folder), "--format", "csv",
               "--jobs", str(jobs)]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "SPEC2CODE_SEED": "20261201"}
    return subprocess.run(identities.as_docker_default(command), cwd=cwd or identities.home(), env=env,
                          capture_output=True, text=True, timeout=900)


def rows_of(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    assert "isolation: user" in done.stderr, done.stderr
    return {row["submission"]: row for row in csv.DictReader(io.StringIO(done.stdout))}


@pytest.fixture
def private_reference():
    """The folder solutions/ made private, as the refusal below says to."""
    with identities.reference_made(0o700) as reference:
        yield reference


@DOCKER
def test_at_the_user_level_a_reference_every_user_can_read_is_refused_with_the_fix(tmp_path):
    """The lab's folder is readable by all (a checkout in /opt, a Docker image), solutions/ too: an agent that finds
    it from harness.__file__ or the paths it can guess would run the reference as its own (5/5 before this was
    refused). No wall can hide it without namespaces, so nothing is graded, and the one line says how to fix it."""
    with identities.reference_made(0o755) as reference:
        done = grade_at_user_level(user_level_class(tmp_path), 1)
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.strip() == (
        f"spec2code grade: refusing to grade: every user can read {reference / 'agent.py'}, so a submission could "
        f"copy the reference: make its folder private (chmod go-rwx {reference}) or grade where namespaces are "
        "available"), done.stderr


@DOCKER
def test_at_the_user_level_asked_for_two_at_a_time_no_submission_reads_a_classmates_copy_or_the_reference(
        tmp_path, private_reference):
    """Asked for two at a time, the grader takes one at a time at this level (submissions share the machine's
    disk); each child's copy of the lab and of its agent.py is its own user's, mode 700, and gone before the next:
    no submission reads a classmate's copy, nor the reference; every reference earns 5/5."""
    rows = rows_of(grade_at_user_level(user_level_class(tmp_path), 2))
    for name in BESIDE:
        assert rows[name]["total"] == "5", (name, rows[name]["notes"])
    assert (rows[COPIER]["total"], rows[THIEF]["total"]) == ("0", "0"), (rows[COPIER], rows[THIEF])


def private_checkout(base: Path) -> tuple[Path, str]:
    """A copy of the lab in a folder only root may read (a home folder of mode 700), and a Python every user can run
    that has this one's packages and that copy: (the copy, the Python)."""
    lab = base / "home" / "lab"
    skip = shutil.ignore_patterns("__pycache__", "node_modules")
    for name in ("harness", "checks", "lab", "solutions"):
        shutil.copytree(ROOT / name, lab / name, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", lab)
    (base / "home").chmod(0o700)
    packages = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    if not all(identities._readable_by_all(p) for p in packages):
        pytest.skip("other users cannot read this Python's packages")
    venv = base / "python"
    subprocess.run([identities.runtime(), "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "spec2code-test.pth").write_text("\n".join([*packages, str(lab)]) + "\n")
    subprocess.run(["chmod", "-R", "a+rX", str(venv)], check=True)
    base.chmod(0o755)
    return lab, str(venv / "bin" / "python")


@DOCKER
def test_at_the_user_level_a_private_checkout_grades_references_5_of_5_and_attackers_nothing(private_reference):
    """A lab in a home folder of mode 700 is graded as well, its children reading their own copies. (This
    checkout's solutions/ is closed too: the copy's Python takes its packages from here, where the thief looks.)"""
    base = Path(tempfile.mkdtemp(prefix="spec2code-test-checkout-", dir=reachable.scratch()))  # not a private TMPDIR
    try:
        lab, python = private_checkout(base)
        rows = rows_of(grade_at_user_level(user_level_class(base / "submissions"), 2, python=python, cwd=lab))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    for name in BESIDE:
        assert rows[name]["total"] == "5", (name, rows[name]["notes"])
    assert (rows[COPIER]["total"], rows[THIEF]["total"]) == ("0", "0"), (rows[COPIER], rows[THIEF])


@DOCKER
def test_at_the_user_level_a_python_no_other_user_can_run_grades_from_copies_every_user_can_read(
        tmp_path, private_reference):
    """Python where only root may read it (pyenv under /root, a private TMPDIR): the sandbox and the agent's child
    start from a copy of it every user can read, so runs still have users of their own and the grades hold. (Before,
    the child refused, and CI printed a class of zeros with exit status 0.)"""
    lab, python = private_checkout(tmp_path)
    tmp_path.chmod(0o700)
    rows = rows_of(grade_at_user_level(user_level_class(tmp_path / "submissions"), 2, python=python, cwd=lab))
    for name in BESIDE:
        assert rows[name]["total"] == "5", (name, rows[name]["notes"])
    assert (rows[COPIER]["total"], rows[THIEF]["total"]) == ("0", "0"), (rows[COPIER], rows[THIEF])
