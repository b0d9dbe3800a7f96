"""Every isolation level, tested on this machine: as a normal user, as root with Docker's default walls, forced.

The set-up creates a normal user (useradd) and runs the sandbox there in a process of its own; Docker's default is
root without CAP_SYS_ADMIN (capsh) and with namespaces refused (a seccomp filter, as Docker's profile does). These
need root and are skipped with the reason elsewhere. Most run a Python every user can read (identities.python());
those named for this machine's Python run the one running these tests, which other users may not read (pyenv
under /root): as root, code never runs as root unless the process level was asked for.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

import pytest

import harness
import harness.model.reading
from harness.tasks import HOLDOUT_TESTS, LEAP_YEAR
from harness.sandbox import reachable
from tests.harness.sandbox import identities
from tests.paths import ROOT

PROBE = "tests/harness/sandbox/_level_probe.py"  # run where every user can read it: identities.script(PROBE)
RUN_UIDS = range(1_900_000_000, 1_900_002_000)
HELD_OUT = len(harness.model.reading.test_names(HOLDOUT_TESTS))  # tests in a held-out run
# They run the hostile corpus, and code at the user level (it writes in the machine's /tmp).
pytestmark = pytest.mark.machine


@pytest.fixture(scope="module")
def python():
    reason = identities.need_root()
    if reason:
        pytest.skip(reason)
    found = identities.python()
    if not found:
        pytest.skip("no Python here that every user may run")
    return found


def probe(command):
    return probe_with(command)


def probe_with(command, env=None):
    done = identities.run(command, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


GRADE_AS_ROOT = """
import json, os, shutil, sys, tempfile
sys.path.insert(0, os.getcwd())
from checks.runner import Agent
from checks.runner.parent import LoadFailed
folder = tempfile.mkdtemp()
os.chmod(folder, 0o755)
with open(os.path.join(folder, "agent.py"), "w") as f:
    f.write("import os\\ndef extract_code(reply):\\n    return str(os.getuid())\\n")
try:
    with Agent(os.path.join(folder, "agent.py")) as child:
        print(json.dumps({"uid": child.call("extract_code", "x")}))
except LoadFailed as e:
    print(json.dumps({"raised": "LoadFailed", "message": str(e)}))
finally:
    shutil.rmtree(folder)
"""


@pytest.mark.slow
def test_a_normal_user_gets_namespaces_through_a_user_namespace(python):
    facts = probe(identities.as_normal_user([python, identities.script(PROBE)]))
    assert facts["euid"] != 0
    assert facts["isolation"] == "namespaces" and "through a user namespace" in facts["summary"]
    assert facts["reference"]["passed"] == HELD_OUT and facts["reference"]["error"] is None
    for run in facts["runs"]:
        assert run["pid"] == "1" and run["uid"] != "0" and run["sees_project"] == "0" and run["nproc"] == "256"
    assert facts["daemons_left"] == []


@pytest.mark.slow
def test_root_with_dockers_default_walls_gets_a_user_of_its_own_per_run(python):
    facts = probe(identities.as_docker_default([python, identities.script(PROBE)]))
    assert facts["isolation"] == "user", facts["summary"]
    assert facts["reference"]["passed"] == HELD_OUT and facts["reference"]["error"] is None
    uids = [int(run["uid"]) for run in facts["runs"]]
    assert all(uid in RUN_UIDS for uid in uids) and len(set(uids)) == 2  # never root, never shared
    assert all(run["nproc"] == "256" and run["socket"] == "0" for run in facts["runs"])  # no network: refused
    assert facts["daemons_left"] == []  # everything the run's user owned was killed
    assert set(facts["lacks"]) == {"read_files", "shared_folders", "processes"}


@pytest.mark.slow
@pytest.mark.parametrize("whose", ["readable by all", "this machine's"])
def test_dockers_capabilities_alone_still_get_namespaces_through_a_user_namespace(python, whose):
    command = [python, identities.script(PROBE)] if whose == "readable by all" else [sys.executable, str(ROOT / PROBE)]
    facts = probe(identities.as_docker_default(command, refuse_namespaces=False))
    assert facts["isolation"] == "namespaces" and "through a user namespace" in facts["summary"]
    assert all(run["uid"] != "0" and run["pid"] == "1" for run in facts["runs"])
    assert facts["reference"]["passed"] == HELD_OUT


@pytest.fixture(scope="module")
def this_python():
    """This machine's own Python (not a copy every user can read): under /root here, as pyenv puts it."""
    reason = identities.need_root()
    if reason:
        pytest.skip(reason)
    return sys.executable


@pytest.mark.slow
@pytest.mark.parametrize("tmpdir", ["shared", "private"])
def test_root_with_dockers_default_walls_and_a_python_other_users_cannot_read_never_runs_code_as_root(
        this_python, tmpdir):
    """Before, such a Python (pyenv under /root) dropped the ladder to `process`: code ran as uid 0. The sandbox
    now runs from a copy of that Python every user can read, so runs get users of their own; a private TMPDIR
    (pam_tmpdir's, mode 700) changes nothing."""
    env = {"TMPDIR": tempfile.mkdtemp(prefix="spec2code-private-")} if tmpdir == "private" else {}
    try:
        facts = probe_with(identities.as_docker_default([this_python, str(ROOT / PROBE)]), env)
    finally:
        if env:
            shutil.rmtree(env["TMPDIR"], ignore_errors=True)
    assert facts["isolation"] == "user", facts["summary"]
    assert facts["reference"]["passed"] == HELD_OUT and facts["reference"]["error"] is None
    uids = [int(run["uid"]) for run in facts["runs"]]
    assert all(uid in RUN_UIDS for uid in uids) and len(set(uids)) == 2, facts["runs"]
    assert facts["daemons_left"] == []
    if reachable.unreadable():  # this machine's case: say where the copy is
        assert "Python runs from a copy that every user can read" in facts["summary"]


@pytest.mark.slow
def test_root_that_cannot_switch_users_refuses_to_run_code_and_says_what_is_missing(this_python):
    facts = probe_with(identities.as_docker_default([this_python, str(ROOT / PROBE)], without=("setuid", "setgid")))
    reference = facts["reference"]
    assert reference["error"] == (
        "crash: the sandbox will not run untrusted code as root: it cannot switch users (CAP_SETUID and CAP_SETGID "
        "are missing); give it those or run it as a normal user, or set SPEC2CODE_ISOLATION=process to accept "
        "running it as root")
    assert reference["passed"] == 0 and len(reference["failed"]) == reference["total"] == HELD_OUT  # never "nothing failed"
    assert all(run == {"output": ""} for run in facts["runs"])  # nothing ran, so nothing said its uid
    assert facts["summary"].startswith("process only: the sandbox will not run untrusted code as root")


@pytest.mark.slow
def test_root_that_asks_for_the_process_level_gets_it_as_root(this_python):
    command = identities.as_docker_default([this_python, str(ROOT / PROBE)], without=("setuid", "setgid"))
    facts = probe_with(command, {"SPEC2CODE_ISOLATION": "process"})
    assert facts["isolation"] == "process" and facts["reference"]["passed"] == HELD_OUT
    assert [run["uid"] for run in facts["runs"]] == ["0", "0"]  # asked for, and said in every result


@pytest.mark.slow
def test_the_graders_child_runs_from_a_readable_copy_of_this_python_as_a_user_of_its_own(this_python):
    """The grader's agent child climbs the same ladder in the grader's own process (this machine's Python). Where only
    a Python others cannot read kept its runs from a user of their own, it starts from the copy the sandbox uses
    (before, it was refused, and grading there gave nothing)."""
    if reachable.unreadable() is None:
        pytest.skip("this machine's Python is readable by every user: the grader's child gets a user of its own")
    facts = probe_with(identities.as_docker_default([this_python, "-c", GRADE_AS_ROOT]))
    assert "raised" not in facts, facts
    assert int(facts["uid"]) in RUN_UIDS


def test_the_graders_child_refuses_where_root_cannot_switch_users_and_fails_closed_in_one_line(this_python):
    command = identities.as_docker_default([this_python, "-c", GRADE_AS_ROOT], without=("setuid", "setgid"))
    facts = probe_with(command)
    assert facts["raised"] == "LoadFailed" and "\n" not in facts["message"]
    assert "the sandbox will not run untrusted code as root: it cannot switch users" in facts["message"]


@pytest.mark.slow
def test_a_normal_user_without_namespaces_gets_the_process_level_as_that_user(python):
    """Refusing is for root alone: a normal user's runs at `process` run as that user, not root."""
    facts = probe(identities.refusing_namespaces(identities.as_normal_user([python, identities.script(PROBE)])))
    assert facts["isolation"] == "process" and facts["reference"]["passed"] == HELD_OUT, facts["summary"]
    assert facts["euid"] == identities.normal_user()
    # A run that did not report its facts shows what it said instead (a failed fork, a timeout).
    assert [run.get("uid") for run in facts["runs"]] == [str(identities.normal_user())] * 2, facts["runs"]


@pytest.mark.slow
@pytest.mark.parametrize("asked, most", [("user", ("user", "process")), ("process", ("process",))])
def test_a_forced_level_is_the_most_a_run_gets_and_says_why(monkeypatch, asked, most):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", asked)
    result = harness.run(LEAP_YEAR.reference, HOLDOUT_TESTS)
    assert result["isolation"] in most and result["passed"] == HELD_OUT
    assert f"SPEC2CODE_ISOLATION={asked}" in harness.sandbox.isolation_summary()


MACHINES_PYTHON = "docker default: this machine's Python, this checkout, a private TMPDIR"


@pytest.mark.slow
@pytest.mark.parametrize("identity", ["normal user", "docker default", MACHINES_PYTHON])
def test_the_hostile_corpus_holds_at_this_identitys_level(python, identity):
    """The third is the machine as it comes: the Python running these tests (which other users may not read), the
    checkout where it is (a private home folder, say) and a scratch folder of mode 700 as TMPDIR (pam_tmpdir's):
    the sandbox must build what the level needs from there, or refuse, and never run code as root."""
    reports = identities.shared_folder("spec2code-corpus-")  # never a private TMPDIR: the normal user writes here
    os.chmod(reports, 0o1777)
    machines = identity == MACHINES_PYTHON
    argv = [sys.executable if machines else python,
            "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/harness/sandbox/test_hostile.py"]
    command = identities.as_normal_user(argv) if identity == "normal user" else identities.as_docker_default(argv)
    env = {"HOSTILE_LEVELS": "auto", "HOSTILE_REPORTS": reports, "PYTHONDONTWRITEBYTECODE": "1"}
    private = tempfile.mkdtemp(prefix="spec2code-private-") if machines else None  # mode 700, root's
    if private:
        env["TMPDIR"] = private
    try:
        done = identities.run(command, timeout=900, env=env, cwd=ROOT if machines else None)
    finally:
        if private:
            shutil.rmtree(private, ignore_errors=True)
    found = [name for name in os.listdir(reports) if name.endswith(".json")]
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    for name in os.listdir(reports):  # keep the reports beside the others
        with open(os.path.join(reports, name)) as src, open(ROOT / "test-artifacts" / name, "w") as dst:
            dst.write(src.read())
    summary = json.load(open(os.path.join(reports, found[0])))["summary"] if found else None
    shutil.rmtree(reports, ignore_errors=True)
    assert done.returncode == 0, done.stdout[-4000:]
    assert summary["held"] + summary["skipped"] == summary["attacks"], summary
