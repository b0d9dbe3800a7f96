"""Removing what a run leaves on disk, in a way that cannot fail: however deep the tree, whatever its modes; and
the lab's folders in the temporary folder, which say who owns them, so that those of a dead owner are reclaimed.

A hostile test can make a folder tree far deeper than recursion allows, or folders no one may enter; removing it
must still succeed, and must never raise into the sandbox server. A process killed with SIGKILL removes nothing,
so (as isolate's --cleanup does) the next one to make such a folder removes those whose owner is gone: the owner
holds a lock on its folder, which the kernel drops when the owner dies. Loaded by the sandbox server by name.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
OWNER = ".spec2code-owner"  # in an owned folder, written once its owner holds the lock: it takes part in the locking
_held: dict[str, int] = {}  # owned folder -> the descriptor that holds its lock


def owned_folder(prefix: str, dir: str | None = None) -> str:
    """A new folder in `dir` (default: the temporary folder), locked for as long as this process (or a fork of it)
    lives or until `give_back`. Folders of `prefix` there whose owners died are removed first."""
    reclaim(prefix, dir)
    folder = tempfile.mkdtemp(prefix=prefix, dir=dir)
    fd = os.open(folder, _DIR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    with open(os.path.join(folder, OWNER), "w") as note:
        note.write(f"{os.getpid()}\n")  # for people; the lock is what counts
    _held[folder] = fd
    return folder


def give_back(folder: str) -> None:
    """Remove an owned folder, then let go of its lock. Never raises."""
    remove_tree(folder)
    fd = _held.pop(folder, None)
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass


def reclaim(prefix: str, dir: str | None = None) -> list[str]:
    """Remove the folders of `prefix` in `dir` (default: the temporary folder) that are provably left by a dead owner: this user's,
    made by owned_folder, and their lock free. A folder that is another user's, or not made so (by an older lab),
    or whose owner lives, is left alone. Never raises; returns what it removed."""
    removed = []
    try:
        where = dir or tempfile.gettempdir()
        names = [name for name in os.listdir(where) if name.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        path = os.path.join(where, name)
        if path in _held:
            continue
        try:
            fd = os.open(path, _DIR)
        except OSError:
            continue
        try:
            if _left_by_the_dead(fd) and remove_tree(path):  # removed while locked: no one else reclaims it meanwhile
                removed.append(path)
        finally:
            os.close(fd)
    return removed


def _left_by_the_dead(fd: int) -> bool:
    """Whether the folder open as `fd` is this user's, made by owned_folder, and its lock (now ours) was free."""
    try:
        if os.fstat(fd).st_uid != os.geteuid():
            return False
        if not stat.S_ISREG(os.stat(OWNER, dir_fd=fd, follow_symlinks=False).st_mode):
            return False
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # refused while its owner lives
        return True
    except OSError:
        return False


def remove_tree(path: str) -> bool:
    """Delete `path` and everything under it, never following a symlink; True if it is gone. Never raises.

    Walks down one folder at a time, holding one descriptor and the names of the folders above (not one
    descriptor or one stack frame per level), so its depth is bounded only by memory."""
    try:
        return _remove(path)
    except Exception:  # noqa: BLE001 - clean-up must not fail; what is left is reported by the return value
        return not os.path.lexists(path)


def _remove(path: str) -> bool:
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
            return True
    except FileNotFoundError:
        return True
    fd = _open_dir(None, path)
    if fd is None:
        return False
    names: list[str] = []  # the folders between `path` and where we are
    stuck: set[int] = set()  # inodes of folders that could not be removed: not entered again
    while True:
        below = None
        with os.scandir(fd) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.stat(follow_symlinks=False).st_ino not in stuck:
                        below = entry
                        break
                else:
                    _retry(os.unlink, entry.name, fd)
        if below is not None:
            child = _open_dir(fd, below.name)
            if child is None:
                stuck.add(below.stat(follow_symlinks=False).st_ino)
            else:
                os.close(fd)
                fd = child
                names.append(below.name)
            continue
        if not names:
            os.close(fd)
            _quietly(os.rmdir, path)
            return not os.path.lexists(path)
        inode = os.fstat(fd).st_ino
        parent = os.open("..", _DIR, dir_fd=fd)
        os.close(fd)
        fd = parent
        name = names.pop()
        if not _retry(os.rmdir, name, fd):
            stuck.add(inode)


def _open_dir(dir_fd, name):
    """A descriptor of the folder, made enterable if its modes forbid it; None if it cannot be had."""
    for attempt in (1, 2):
        try:
            return os.open(name, _DIR, dir_fd=dir_fd)
        except PermissionError:
            if attempt == 2:
                return None
            _quietly(os.chmod, name, 0o700, dir_fd=dir_fd)
        except OSError:
            return None
    return None


def _retry(remove, name, dir_fd) -> bool:
    """remove(name) in the folder `dir_fd`, making the folder writable first if its modes forbid it."""
    for attempt in (1, 2):
        try:
            remove(name, dir_fd=dir_fd)
            return True
        except PermissionError:
            if attempt == 1:
                _quietly(os.fchmod, dir_fd, 0o700)
        except FileNotFoundError:
            return True
        except OSError:
            return False
    return False


def _quietly(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except OSError:
        pass
