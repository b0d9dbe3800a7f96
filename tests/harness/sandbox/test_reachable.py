"""reachable: as root, what a run's own user must reach is where they can reach it: the runs' folders outside a
private TMPDIR, and a copy of the Python runtime every user can read, made once and reused."""

import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from harness.sandbox import reachable

NOBODY = 65534


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


@pytest.fixture(scope="module")
def copy():
    if os.geteuid() != 0:
        pytest.skip("needs root: the copy is root's, for the runs' own users")
    return reachable.readable_copy()


@pytest.mark.slow
def test_the_copy_is_roots_every_user_runs_it_and_it_holds_pytest(copy):
    python, env = copy
    folder = os.path.dirname(os.path.dirname(python))
    info = os.stat(folder)
    assert info.st_uid == 0 and info.st_mode & 0o777 == 0o755 and reachable.readable_by_all(python)
    as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    done = subprocess.run([*as_nobody, python, "-I", "-c", "import sys, json, fractions, pytest; print(sys.prefix)"],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin", **env}, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == folder
    assert not os.path.exists(os.path.join(folder, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}",
                                           "test"))  # the standard library's own tests are left out


def test_the_copy_is_made_once_then_reused(copy):
    assert reachable.readable_copy() == copy


def test_a_folder_of_the_copys_name_made_by_another_user_is_never_used(monkeypatch, folder):
    if os.geteuid() != 0:
        pytest.skip("needs root, to make a folder another user owns")
    os.chmod(folder, 0o755)
    monkeypatch.setattr(reachable, "_key", lambda files: "planted")
    planted = os.path.join(folder, f"{reachable.COPY}{sys.version_info[0]}.{sys.version_info[1]}-planted")
    os.mkdir(planted)
    os.chown(planted, NOBODY, NOBODY)
    with pytest.raises(OSError, match="was not made by this user, so it is not used"):
        reachable.readable_copy(parents=(folder,))


@pytest.mark.slow
def test_a_copy_of_debians_python_holds_pytest_where_it_looks(folder):
    """Debian's Python reads dist-packages, not site-packages: a copy of it once found no pytest, so the sandbox never
    started and every run of a class graded with it crashed. pytest now sits beside the standard library."""
    system = "/usr/bin/python3"
    if os.geteuid() != 0 or not os.path.exists(system) or "dist-packages" not in subprocess.run(
            [system, "-c", "import site; print(site.getsitepackages())"], capture_output=True, text=True).stdout:
        pytest.skip("needs root and Debian's Python")
    packages = [p for p in sys.path if p.endswith("site-packages")]
    make = ("import sys; sys.path[:0] = sys.argv[1:]; import reachable; python, env = reachable.readable_copy(); "
            "print(python)")
    here = os.path.dirname(reachable.__file__)
    made = subprocess.run([system, "-I", "-c", make, here, *packages], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    python = made.stdout.strip()
    as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    done = subprocess.run([*as_nobody, python, "-I", "-c", "import pytest, pluggy; print(pytest.__file__)"],
                          capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"}, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(os.path.dirname(os.path.dirname(python))), done.stdout


@pytest.mark.slow
def test_a_copy_no_lab_has_used_for_a_week_is_removed_when_a_new_one_is_made(monkeypatch, folder):
    """Each update of the lab's packages makes a copy of its own (80 MB): those left unused go, so the disk is bounded."""
    if os.geteuid() != 0:
        pytest.skip("needs root: the copy is root's")
    os.chmod(folder, 0o1777)  # a shared folder, as /var/tmp is
    old, recent = (os.path.join(folder, f"{reachable.COPY}{name}") for name in ("3.11-old", "3.11-recent"))
    for made in (old, recent):
        os.mkdir(made, 0o755)
    week = time.time() - reachable.UNUSED - 60
    os.utime(old, (week, week))
    python, _ = reachable.readable_copy(parents=(folder,))
    assert not os.path.exists(old) and os.path.isdir(recent)
    shown = os.path.dirname(os.path.dirname(python))
    os.utime(shown, (week, week))
    assert reachable.readable_copy(parents=(folder,))[0] == python
    assert os.stat(shown).st_mtime > week + 3600  # reuse counts as use
