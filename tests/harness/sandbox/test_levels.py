"""Every isolation level, tested on this machine: as a normal user, as root with Docker's default walls, forced.

The set-up creates a normal user (useradd) and runs the sandbox there in a process of its own; Docker's default is
root without CAP_SYS_ADMIN (capsh) and with namespaces refused (a seccomp filter, as Docker's profile does). These
need root and are skipped with the reason elsewhere.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

import harness
from harness.tasks import HOLDOUT_TESTS, LEAP_YEAR
from tests.harness.sandbox import identities
from tests.paths import ROOT

PROBE = "tests/harness/sandbox/_level_probe.py"  # run where every user can read it: identities.script(PROBE)
RUN_UIDS = range(1_900_000_000, 1_900_002_000)


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
    done = identities.run(command, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_normal_user_gets_namespaces_through_a_user_namespace(python):
    facts = probe(identities.as_normal_user([python, identities.script(PROBE)]))
    assert facts["euid"] != 0
    assert facts["isolation"] == "namespaces" and "through a user namespace" in facts["summary"]
    assert facts["reference"]["passed"] == 8 and facts["reference"]["error"] is None
    for run in facts["runs"]:
        assert run["pid"] == "1" and run["uid"] != "0" and run["sees_project"] == "0" and run["nproc"] == "256"
    assert facts["daemons_left"] == []


def test_root_with_dockers_default_walls_gets_a_user_of_its_own_per_run(python):
    facts = probe(identities.as_docker_default([python, identities.script(PROBE)]))
    assert facts["isolation"] == "user", facts["summary"]
    assert facts["reference"]["passed"] == 8 and facts["reference"]["error"] is None
    uids = [int(run["uid"]) for run in facts["runs"]]
    assert all(uid in RUN_UIDS for uid in uids) and len(set(uids)) == 2  # never root, never shared
    assert all(run["nproc"] == "256" and run["socket"] == "0" for run in facts["runs"])  # no network: refused
    assert facts["daemons_left"] == []  # everything the run's user owned was killed
    assert set(facts["lacks"]) == {"read_files", "shared_folders", "processes"}


def test_dockers_capabilities_alone_still_get_namespaces_through_a_user_namespace(python):
    facts = probe(identities.as_docker_default([python, identities.script(PROBE)], refuse_namespaces=False))
    assert facts["isolation"] == "namespaces" and "through a user namespace" in facts["summary"]
    assert all(run["uid"] != "0" and run["pid"] == "1" for run in facts["runs"])
    assert facts["reference"]["passed"] == 8


@pytest.mark.parametrize("asked, most", [("user", ("user", "process")), ("process", ("process",))])
def test_a_forced_level_is_the_most_a_run_gets_and_says_why(monkeypatch, asked, most):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", asked)
    result = harness.run(LEAP_YEAR.reference, HOLDOUT_TESTS)
    assert result["isolation"] in most and result["passed"] == 8
    assert f"SPEC2CODE_ISOLATION={asked}" in harness.sandbox.isolation_summary()


@pytest.mark.slow
@pytest.mark.parametrize("identity", ["normal user", "docker default"])
def test_the_hostile_corpus_holds_at_this_identitys_level(python, identity):
    reports = identities.shared_folder("spec2code-corpus-")  # never a private TMPDIR: the normal user writes here
    os.chmod(reports, 0o1777)
    argv = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/harness/sandbox/test_hostile.py"]
    command = identities.as_normal_user(argv) if identity == "normal user" else identities.as_docker_default(argv)
    done = identities.run(command, timeout=900, env={"HOSTILE_LEVELS": "auto", "HOSTILE_REPORTS": reports,
                                                      "PYTHONDONTWRITEBYTECODE": "1"})
    found = [name for name in os.listdir(reports) if name.endswith(".json")]
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    for name in os.listdir(reports):  # keep the reports beside the others
        with open(os.path.join(reports, name)) as src, open(ROOT / "test-artifacts" / name, "w") as dst:
            dst.write(src.read())
    summary = json.load(open(os.path.join(reports, found[0])))["summary"] if found else None
    shutil.rmtree(reports, ignore_errors=True)
    assert done.returncode == 0, done.stdout[-4000:]
    assert summary["held"] + summary["skipped"] == summary["attacks"], summary
