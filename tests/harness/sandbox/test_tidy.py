"""tidy.remove_tree: any depth, any modes, symlinks never followed, never raises."""

import os

from harness.sandbox import tidy


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
