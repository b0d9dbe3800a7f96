"""A minimal root for sandboxed code: a bounded tmpfs holding only the Python runtime (read-only) and empty folders.

Loaded by walls.py, by name or through `harness`; it imports nothing of the lab.
"""

from __future__ import annotations

import ctypes
import os
import stat
import sys

CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_BIND = 0x20, 0x400, 0x800, 0x1000
MS_REC, MS_PRIVATE, MS_RELATIME = 0x4000, 0x40000, 0x200000
# statvfs flag -> mount flag: a read-only remount must keep the flags a user namespace may not change.
_KEPT = {os.ST_NODEV: MS_NODEV, os.ST_NOEXEC: MS_NOEXEC, os.ST_NOATIME: MS_NOATIME,
         os.ST_NODIRATIME: MS_NODIRATIME, os.ST_RELATIME: MS_RELATIME} if hasattr(os, "ST_RELATIME") else {}
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
SIZE = "64m"  # the whole writable space of one side of a run: its working folder and /tmp

_libc = ctypes.CDLL(None, use_errno=True)


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = lambda s: None if s is None else os.fsencode(s)  # noqa: E731 - a path may hold any bytes
    _check(_libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def runtime_paths() -> list[str]:
    """The folders the Python runtime needs to keep working: the system libraries and the stdlib."""
    paths = []
    for path in ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin"):
        if os.path.exists(path) and not os.path.islink(path):
            paths.append(path)
    for prefix in {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix)}:
        if not any(prefix == p or prefix.startswith(p + "/") for p in paths):
            paths.append(prefix)
    return paths


# Looked up once a process: the sandbox's server has them when it forks a run's two processes, which each spent
# 0.2 ms of CPU and some 20 page copies finding them again.
RUNTIME = tuple(runtime_paths())


def _touch(path: str) -> None:
    """An empty file at `path` (kept if there), for a bind mount to cover: a file descriptor, not a Python file
    object, which cost about 60 us and 9 page copies a file in a run's processes."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666))


def _bind(source: str, found: int, root: str, *, readonly: bool) -> None:
    """Bind `source` at the same path under `root`, through `found` (a descriptor opened on it before `root` was
    mounted, which may hide it: a runtime under /tmp, with the root mounted over /tmp)."""
    target = root + source
    if stat.S_ISDIR(os.fstat(found).st_mode):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        _touch(target)
    mount(f"/proc/self/fd/{found}", target, None, MS_BIND | MS_REC)
    if readonly:
        kept = os.statvfs(target).f_flag
        flags = sum(ms for st, ms in _KEPT.items() if kept & st)
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | flags)


def enter_minimal_root(
    mountpoint: str, uid: int, gid: int, *, readonly=(), writable=(), hidden=(), proc=True, workdir="/work", size=SIZE
) -> list[str]:
    """Make a private mount namespace whose root is a tmpfs of `size` holding only the Python runtime (read-only),
    the extra folders given (read-only, or writable at the same path), /dev/null and friends, and an empty
    writable `workdir` and /tmp; then chroot into it and go to `workdir`. Folders in `hidden` that the runtime's
    folders happen to contain are covered with an empty one. Return what could not be done (a /proc, say).

    The project tree, the home folder and the held-out tests are simply not there.
    Needs CAP_SYS_ADMIN where this mount namespace is made (root, or a user namespace of our own); with `proc`,
    call it inside a new PID namespace.
    """
    missing = []
    _check(_libc.unshare(ctypes.c_int(CLONE_NEWNS)), "unshare")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    shown = [(path, True) for path in [*RUNTIME, *[p for p in readonly if os.path.exists(p)]]]
    shown += [(path, False) for path in writable]
    found = [os.open(path, os.O_PATH | os.O_CLOEXEC) for path, _ in shown]  # before the tmpfs can hide them
    try:
        mount("spec2code", mountpoint, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size},mode=755")
        for (path, readonly_), fd in zip(shown, found):
            _bind(path, fd, mountpoint, readonly=readonly_)
    finally:
        for fd in found:
            os.close(fd)
    for path in hidden:
        if os.path.isdir(mountpoint + path):
            mount("spec2code", mountpoint + path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "size=4k")
    for link in ("/bin", "/sbin", "/lib", "/lib64", "/lib32"):
        if os.path.islink(link) and not os.path.lexists(mountpoint + link):
            os.symlink(os.readlink(link), mountpoint + link)
    os.makedirs(mountpoint + "/dev", exist_ok=True)
    for dev in DEVICES:
        if os.path.exists(dev):
            _touch(mountpoint + dev)
            mount(dev, mountpoint + dev, None, MS_BIND)
    if proc:
        os.makedirs(mountpoint + "/proc")
        try:
            mount("proc", mountpoint + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        except OSError as e:  # a container's /proc with masked paths cannot be mounted again in a user namespace
            missing.append(f"no /proc for the solution ({e.strerror})")
    os.makedirs(mountpoint + "/etc", exist_ok=True)
    for folder in (workdir, "/tmp"):
        os.makedirs(mountpoint + folder, exist_ok=True)
        os.chown(mountpoint + folder, uid, gid)
    os.chmod(mountpoint + "/tmp", 0o1777)
    os.chroot(mountpoint)
    os.chdir(workdir)
    return missing
