"""tidy: remove_tree at any depth, any modes, symlinks never followed, never raising; and owned folders, those of
a dead owner reclaimed and no other."""

import os
import subprocess
import sys
import tempfile

import pytest

from harness.sandbox import tidy
from tests.paths import ROOT


@pytest.mark.slow
def test_a_tree_deeper_than_recursion_allows_is_removed(tmp_path):
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(5000):
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = below
    os.close(fd)
    assert tidy.remove_tree(str(tmp_path / "d")) and not (tmp_path / "d").exists()


def test_folders_no_one_may_enter_or_write_are_removed_and_symlinks_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("x")
    tree = tmp_path / "tree"
    (tree / "a" / "b").mkdir(parents=True)
    (tree / "a" / "b" / "f").write_text("x")
    (tree / "link").symlink_to(outside)
    os.chmod(tree / "a" / "b", 0)
    os.chmod(tree / "a", 0o500)
    assert tidy.remove_tree(str(tree)) and not tree.exists()
    assert (outside / "keep").exists()


def test_what_is_not_there_is_removed_already(tmp_path):
    assert tidy.remove_tree(str(tmp_path / "nothing"))


# A process that makes an owned folder, says where, and waits to be killed.
OWNER = f"""
import sys
sys.path.insert(0, {str(ROOT / "harness" / "sandbox")!r})  # as the sandbox server loads it: by name
import tidy
print(tidy.owned_folder("spec2code-test-"), flush=True)
sys.stdin.read()
"""


def make_owned_folder(tmp_path) -> tuple[subprocess.Popen, str]:
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "TMPDIR": str(tmp_path)})
    return owner, owner.stdout.readline().strip()


def test_the_folders_of_owners_killed_with_sigkill_are_reclaimed_and_no_other(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead, dead_folder = make_owned_folder(tmp_path)
    alive, alive_folder = make_owned_folder(tmp_path)
    dead.kill()
    dead.wait()
    older = tmp_path / "spec2code-test-older"  # made by a lab before folders said who owns them: no proof
    older.mkdir()
    ours = tidy.owned_folder("spec2code-test-")  # reclaims the dead owner's on its way
    assert not os.path.exists(dead_folder)
    assert os.path.isdir(alive_folder) and older.is_dir() and os.path.isdir(ours)
    alive.kill()
    alive.wait()
    assert tidy.reclaim("spec2code-test-") == [alive_folder] and os.path.isdir(ours)
    tidy.give_back(ours)
    assert not os.path.exists(ours) and older.is_dir()


@pytest.mark.skipif(os.geteuid() != 0, reason="making a folder another user owns needs root")
def test_a_dead_owners_folder_of_another_user_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    owner, folder = make_owned_folder(tmp_path)
    owner.kill()
    owner.wait()
    os.chown(folder, 65534, 65534)  # nobody's: we cannot prove its owner dead, nor is it ours to remove
    assert tidy.reclaim("spec2code-test-") == [] and os.path.isdir(folder)
