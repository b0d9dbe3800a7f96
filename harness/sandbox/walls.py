"""Operating-system walls for sandboxed code: namespaces, a minimal root, no privileges, resource limits.

Loaded by the sandbox server by name (it must not import the `harness` package, which holds the held-out tests),
and by the grader's agent runner. Every function here is a best effort that reports what it could not do.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38

NOBODY = 65534  # uid and gid the sandboxed code runs as when the sandbox starts as root

_libc = None


def libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return _libc


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def is_linux() -> bool:
    return sys.platform.startswith("linux")


def prctl(option: int, arg: int) -> bool:
    if not is_linux():
        return False
    return libc().prctl(option, ctypes.c_ulong(arg), 0, 0, 0) == 0


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies, so nothing outlives a run."""
    prctl(PR_SET_PDEATHSIG, 9)


def unshare(flags: int) -> None:
    _check(libc().unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    enc = lambda s: None if s is None else s.encode()  # noqa: E731
    _check(libc().mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def namespaces_available() -> str | None:
    """Return None if this process can make namespaces here, else the reason it cannot."""
    if not is_linux():
        return f"no Linux namespaces on {sys.platform}"
    if os.geteuid() != 0:
        return "not running as root, so no namespaces or user switch"
    return None


def enter_network_void() -> bool:
    """Move this process into a new network namespace with no interfaces up: no network at all."""
    try:
        unshare(CLONE_NEWNET)
        return True
    except OSError:
        return False


def _bind(source: str, root: str, *, readonly: bool) -> None:
    target = root + source
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "a").close()
    mount(source, target, None, MS_BIND | MS_REC)
    if readonly:
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_REC)


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


def enter_minimal_root(
    mountpoint: str, uid: int, gid: int, *, readonly=(), writable=(), hidden=(), proc=True, workdir="/work"
) -> None:
    """Make a private mount namespace whose root holds only the Python runtime (read-only), the
    extra folders given (read-only, or writable at the same path), /dev/null and friends, and an
    empty writable `workdir` and /tmp; then chroot into it and go to `workdir`. Folders in `hidden`
    that the runtime's folders happen to contain are covered with an empty one.

    The project tree, the home folder and the held-out tests are simply not there.
    Must be called as root; with `proc`, inside a new PID namespace.
    """
    unshare(CLONE_NEWNS)
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("spec2code", mountpoint, "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=755")
    for path in runtime_paths() + [p for p in readonly if os.path.exists(p)]:
        _bind(path, mountpoint, readonly=True)
    for path in writable:
        _bind(path, mountpoint, readonly=False)
    for path in hidden:
        if os.path.isdir(mountpoint + path):
            mount("spec2code", mountpoint + path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "size=4k")
    for link in ("/bin", "/sbin", "/lib", "/lib64", "/lib32"):
        if os.path.islink(link) and not os.path.lexists(mountpoint + link):
            os.symlink(os.readlink(link), mountpoint + link)
    os.makedirs(mountpoint + "/dev", exist_ok=True)
    for dev in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"):
        if os.path.exists(dev):
            open(mountpoint + dev, "a").close()
            mount(dev, mountpoint + dev, None, MS_BIND)
    if proc:
        os.makedirs(mountpoint + "/proc")
        mount("proc", mountpoint + "/proc", "proc", MS_NOSUID | MS_NODEV)
    os.makedirs(mountpoint + "/etc", exist_ok=True)
    for folder in (workdir, "/tmp"):
        os.makedirs(mountpoint + folder, exist_ok=True)
        os.chown(mountpoint + folder, uid, gid)
    os.chmod(mountpoint + "/tmp", 0o1777)
    os.chroot(mountpoint)
    os.chdir(workdir)


def drop_privileges(uid: int = NOBODY, gid: int = NOBODY) -> None:
    """Become an unprivileged user for good (no way back to root, no setuid gains)."""
    if os.geteuid() == 0:
        os.setgroups([])
        os.setresgid(gid, gid, gid)
        os.setresuid(uid, uid, uid)
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def forbid_inspection() -> None:
    """Stop same-user processes from reading this one's memory (ptrace, /proc/PID/mem)."""
    prctl(PR_SET_DUMPABLE, 0)


def limit_resources(*, cpu_seconds: int, memory_bytes: int, file_bytes: int, processes: int, files: int) -> list[str]:
    """Set hard resource limits; return the names of those the OS refused."""
    refused = []
    wanted = {
        "RLIMIT_CPU": (cpu_seconds, cpu_seconds + 1),
        "RLIMIT_AS": (memory_bytes, memory_bytes),
        "RLIMIT_FSIZE": (file_bytes, file_bytes),
        "RLIMIT_NPROC": (processes, processes),
        "RLIMIT_NOFILE": (files, files),
        "RLIMIT_CORE": (0, 0),
    }
    for name, (soft, hard) in wanted.items():
        which = getattr(resource, name, None)
        if which is None:
            refused.append(name)
            continue
        try:
            resource.setrlimit(which, (soft, hard))
        except (ValueError, OSError):
            refused.append(name)
    return refused


def current_address_space() -> int:
    """Bytes of virtual memory this process maps now (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0
