"""reachable: as root, what a run's own user must reach is where they can reach it: the runs' folders outside a
private TMPDIR."""

import os
import shutil
import tempfile

import pytest

from harness.sandbox import reachable


@pytest.fixture
def folder():
    made = tempfile.mkdtemp(prefix="spec2code-test-", dir="/tmp")
    yield made
    shutil.rmtree(made, ignore_errors=True)


def test_readable_by_all_means_every_folder_on_the_way_too(folder):
    path = os.path.join(folder, "inner", "file")
    os.makedirs(os.path.dirname(path))
    open(path, "w").close()
    os.chmod(path, 0o644)
    os.chmod(os.path.dirname(path), 0o755)
    os.chmod(folder, 0o700)
    assert not reachable.readable_by_all(path)
    os.chmod(folder, 0o755)
    assert reachable.readable_by_all(path) and not reachable.readable_by_all(os.path.join(folder, "absent"))


def test_the_runs_folders_are_never_made_in_a_private_tmpdir(monkeypatch, folder):
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile reads TMPDIR again
    os.chmod(folder, 0o700)  # a private TMPDIR, as pam_tmpdir sets it
    monkeypatch.setenv("TMPDIR", folder)
    chosen = reachable.scratch()
    assert chosen in reachable.SHARED and reachable.readable_by_all(chosen)
    os.chmod(folder, 0o755)
    monkeypatch.setattr(tempfile, "tempdir", None)
    assert reachable.scratch() == folder  # a TMPDIR everyone can reach is used as it is
