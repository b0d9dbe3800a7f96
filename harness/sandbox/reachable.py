"""What a run's own user must reach when the lab runs as root: a scratch folder, and a copy of the Python runtime
that every user can read where the machine's own is private (pyenv under /root, conda in a home folder).

Loaded by the sandbox server and walls.py by name. It imports nothing of the lab, and what only a copy needs only
when one is made: walls.py, loaded in every grader's child, reads `readable_by_all` alone.
"""

from __future__ import annotations

import os
import stat
import sys
import sysconfig

SHARED = ("/tmp", "/var/tmp", "/dev/shm")  # folders every user can reach on most machines, tried in this order
COPIES = ("/var/tmp", "/tmp", "/dev/shm")  # where the runtime's copy is kept: on disk first, since it is reused
COPY = "spec2code-python"  # the copies' names start so, then the version and the key of what they hold
LEFT_OUT = ("site-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "config-")
# ^ folders of the standard library no run reads (a name ending in "-" is a prefix): the copy keeps 58 MB of 940 here
STALE = 600  # seconds after which a copy begun and never finished (its server killed) is removed
UNUSED = 7 * 24 * 3600  # seconds after which a finished copy no lab has used is removed (each update makes a new one)


def readable_by_all(path) -> bool:
    """True if any user can read `path`: the file, and every folder on the way to it."""
    path = os.path.abspath(path)
    while True:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return False
        if not mode & (stat.S_IXOTH if stat.S_ISDIR(mode) else stat.S_IROTH):
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def scratch() -> str:
    """The folder to make run folders in when runs have users of their own: the temporary folder if every user can
    reach it, else (a private TMPDIR, as pam_tmpdir sets it) the first shared folder that they can."""
    import tempfile

    for folder in (tempfile.gettempdir(), *SHARED):
        if os.path.isdir(folder) and readable_by_all(folder):
            return folder
    raise OSError(f"other users can reach neither the temporary folder nor any of {', '.join(SHARED)}")


def _stdlib() -> str:
    return os.path.realpath(sysconfig.get_paths()["stdlib"])


def _test_distributions() -> list:
    """pytest and everything it requires here: what the sandbox's test process imports beyond the stdlib."""
    from importlib import metadata

    from packaging.requirements import Requirement

    found, todo = {}, ["pytest"]
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in found:
            continue
        found[name] = dist = metadata.distribution(name)
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(found.values())


def unreadable() -> str | None:
    """The first folder of this Python's that a run reads and other users cannot (its prefix, the folders it imports
    from: the standard library, site-packages with pytest), or None."""
    folders = [sys.base_prefix, sys.prefix, *(path for path in sys.path if os.path.isdir(path))]
    return next((folder for folder in map(os.path.realpath, folders) if not readable_by_all(folder)), None)


def is_copy() -> bool:
    """Whether this Python is one of the copies `readable_copy` makes."""
    return os.path.basename(os.path.realpath(sys.prefix)).startswith(COPY)


def _version() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def _shared_library() -> str | None:
    """libpython, where the interpreter loads it from a folder other users cannot read; else None."""
    library = os.path.join(sysconfig.get_config_var("LIBDIR") or "", sysconfig.get_config_var("INSTSONAME") or "")
    if sysconfig.get_config_var("Py_ENABLE_SHARED") and os.path.isfile(library) and not readable_by_all(library):
        return library
    return None


def _files() -> list[tuple[str, str]]:
    """(where it is, where it goes in the copy) for each file of the copy: the interpreter (and libpython), the
    standard library with its compiled files, and pytest's distributions."""
    stdlib, lib = _stdlib(), f"lib/python{_version()}"
    files = [(os.path.realpath(getattr(sys, "_base_executable", sys.executable)), f"bin/python{_version()}")]
    library = _shared_library()
    if library:
        files.append((library, f"lib/{os.path.basename(library)}"))
    for folder, folders, names in os.walk(stdlib):
        if folder == stdlib:
            folders[:] = [f for f in folders if not f.startswith(LEFT_OUT)]
        folders.sort()
        inside = os.path.relpath(folder, stdlib)
        for name in sorted(names):
            if ".opt-" not in name:  # compiled for -O only: never used here
                files.append((os.path.join(folder, name), os.path.normpath(os.path.join(lib, inside, name))))
    # pytest's distributions go beside the standard library, which every Python puts on its path: Debian's reads
    # dist-packages where others read site-packages, and a copy of it found no pytest there (its sandbox never started).
    for dist in _test_distributions():
        for entry in dist.files or []:
            source = str(dist.locate_file(entry))
            if entry.parts[0] != ".." and os.path.isfile(source):
                files.append((source, f"{lib}/{entry}"))
    return files


def _key(files) -> str:
    """A name for what the copy holds: every file's place, size and time (a change in any makes a new copy)."""
    import hashlib

    digest = hashlib.sha256(sys.version.encode())
    for source, relative in files:
        info = os.stat(source)
        digest.update(f"\0{relative}\0{info.st_size}\0{info.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def _safe_parent(folder: str) -> bool:
    """A folder to keep copies in: every user can reach it, and no other user can replace what root puts there."""
    try:
        info = os.stat(folder)
    except OSError:
        return False
    sticky_or_closed = info.st_mode & stat.S_ISVTX or not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and bool(sticky_or_closed) and readable_by_all(folder)


def _ours(folder: str) -> bool:
    """Whether `folder` is a finished copy made by this user (as root: that no other user could have made it)."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


def readable_copy(parents=COPIES) -> tuple[str, dict]:
    """A copy of this Python that every user can read and run: its interpreter and the environment it needs. Made
    once (3 s and 80 MB here) into a folder of its user's, in the first of `parents` that every user can reach and
    only root may replace things in, named for what it holds; then reused. Raises OSError if it cannot be made."""
    parent = next((folder for folder in parents if _safe_parent(folder)), None)
    if parent is None:
        raise OSError(f"none of {', '.join(parents)} is a shared folder only root may replace things in")
    files = _files()
    folder = os.path.join(parent, f"{COPY}{_version()}-{_key(files)}")
    if os.path.lexists(folder) and not _ours(folder):
        raise OSError(f"{folder} was not made by this user, so it is not used")
    if not _ours(folder):
        _build(folder, files)
    else:
        os.utime(folder)  # its time says when it was last used: see _build
    python = os.path.join(folder, "bin", f"python{_version()}")
    return python, ({"LD_LIBRARY_PATH": os.path.join(folder, "lib")} if _shared_library() else {})


def _build(folder: str, files) -> None:
    """Copy `files` into a new folder beside `folder`, then rename it into place: a copy is whole, or absent."""
    import shutil
    import tempfile
    import time

    parent, begun = os.path.dirname(folder), f".{COPY}"
    for name in os.listdir(parent):  # copies begun and never finished, and those no lab has used for a week
        path = os.path.join(parent, name)
        age = time.time() - os.lstat(path).st_mtime if _ours(path) else 0
        if (name.startswith(begun) and age > STALE) or (name.startswith(COPY) and age > UNUSED):
            shutil.rmtree(path, ignore_errors=True)
    work = tempfile.mkdtemp(dir=parent, prefix=f".{os.path.basename(folder)}-")
    try:
        for source, relative in files:
            target = os.path.join(work, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(source, target)  # its times too: the compiled files stay valid for their sources
            os.chmod(target, 0o755 if os.stat(source).st_mode & stat.S_IXUSR else 0o644)
        for path, _, _ in os.walk(work):
            os.chmod(path, 0o755)
        os.rename(work, folder)
    except OSError:
        shutil.rmtree(work, ignore_errors=True)
        if not _ours(folder):  # else another server made the same copy first
            raise


def rerun_readable(argv: list[str]) -> list[str]:
    """If the runs cannot read this Python, become `argv` (a script and its arguments) again, run by a copy of this
    Python that they can read; else the notes to add: where the copy is, or why none could be made."""
    if is_copy():
        return [f"Python runs from a copy that every user can read, in {sys.prefix}"]
    try:
        if not unreadable():
            return []
        python, env = readable_copy()
    except Exception as e:  # noqa: BLE001 - no copy: the ladder stays where it is (refused, as root)
        return [f"no copy of Python that other users can read could be made ({e})"]
    os.execve(python, [python, "-I", *argv], {**os.environ, **env})
