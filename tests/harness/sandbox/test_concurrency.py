"""Runs share no limit and cannot reach each other: a hostile run never changes an honest run's verdict beside it."""

from __future__ import annotations

import json

import pytest

import harness
from tests.harness.sandbox import identities
from tests.harness.sandbox._beside import beside

BESIDE = "tests/harness/sandbox/_beside.py"  # run where every user can read it: identities.script(BESIDE)
NEEDS = {"flood": "own_limits", "kill(-1)": "signals"}  # the wall each hostile run tests


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["flood", "kill(-1)"])
@pytest.mark.parametrize("level", ["auto", "process"])
def test_an_honest_run_stays_green_beside_a_hostile_one(monkeypatch, level, kind):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", level)
    lacks = harness.sandbox.isolation_lacks()
    if NEEDS[kind] in lacks:
        pytest.skip(f"{harness.sandbox.isolation_level()} level: {lacks[NEEDS[kind]]}")
    figures = beside(kind, 20 if kind == "flood" else 10)
    print(f"\n{kind} beside an honest run at {figures['isolation']}: {figures['green']}/{figures['runs']} green "
          f"(up to {figures['processes']} processes on the machine)")
    assert figures["green"] == figures["runs"], json.dumps(figures)  # a string, shown whole: why runs were not green


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["flood", "kill(-1)"])
@pytest.mark.parametrize("identity, level", [("docker default", "user"), ("normal user", "namespaces")])
def test_an_honest_run_stays_green_beside_a_hostile_one_as_another_identity(identity, level, kind):
    """Root with Docker's default walls (runs told apart by their users alone), and a normal user (by user
    namespaces: the kernel counts a user's processes per user namespace)."""
    reason = identities.need_root()
    if reason or not identities.python():
        pytest.skip(reason or "no Python here that every user may run")
    argv = [identities.python(), identities.script(BESIDE), kind, "20" if kind == "flood" else "10"]
    command = identities.as_docker_default(argv) if identity == "docker default" else identities.as_normal_user(argv)
    done = identities.run(command, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\n{kind} beside an honest run at {figures['isolation']} ({identity}): {figures['green']}/{figures['runs']} "
          f"green (up to {figures['processes']} processes on the machine)")
    assert figures["isolation"] == level and figures["green"] == figures["runs"], json.dumps(figures)
