"""The Linux calls the walls are made of: prctl, unshare, users and capabilities, resource limits, a parent to die with.

Loaded by name by the sandbox server and the agent runner's start.py (and through `harness` by the agent's child);
it imports nothing of the lab. The ladder that puts these together is walls.py.
"""

from __future__ import annotations

import ctypes
import os
import resource
import select
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CAP_SETGID, CAP_SETUID, CAP_SYS_ADMIN = 6, 7, 21

NOBODY = 65534  # uid and gid the grader's child runs as when it starts as root
INNER = 1000  # uid and gid sandboxed code has inside a user namespace of its own
KILLED = 137  # exit status of a process that ends itself because the one it belongs to has gone (as SIGKILL's)

_libc = None
_parent = None  # the process whose end must end this one, when it is this process's parent (see attach)
_keeper = None  # in the walled child: (fd, identity) of what it watches its keeper (or parent) by: readable = gone
_watched = False  # whether this process watches its parent through a pidfd (see fork_watched)
_pidfds = None  # whether the kernel gives pidfds, once asked (see pidfds)


def libc():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
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


def unshare(flags: int) -> None:
    _check(libc().unshare(ctypes.c_int(flags)), "unshare")


def setns(fd: int, nstype: int) -> None:
    _check(libc().setns(ctypes.c_int(fd), ctypes.c_int(nstype)), "setns")


# --- dying with the process this one belongs to --------------------------------------------------------------


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies, so nothing outlives a run.
    Changing user or capabilities clears this: call it after them."""
    prctl(PR_SET_PDEATHSIG, 9)


def attach(parent: int) -> None:
    """Die with `parent`, which started this process: if it has already gone (killed while this process started
    up, before it could ask the kernel), end now rather than run on with nobody to stop it."""
    global _parent
    _parent = parent
    die_with_parent()
    if os.getppid() != parent:
        os._exit(KILLED)


def orphaned() -> bool:
    """Whether what must outlive this process has gone already: its keeper (in a walled child), or the parent
    given to `attach`. Asked after `die_with_parent`, so a death after the question is the kernel's to act on."""
    if _keeper is not None:
        fd = keeper_fd()
        if fd is None:
            return False  # the caller closed it: no telling, and the kernel will act on a death from now on
        return bool(select.select([fd], [], [], 0)[0])  # readable: the keeper's end is closed, or it has ended
    return _parent is not None and os.getppid() != _parent


def keeper_fd() -> int | None:
    """The descriptor on which a walled child watches its keeper, if it is still open (a caller that closes every
    descriptor before the walls are finished should keep this one)."""
    if _keeper is None:
        return None
    fd, identity = _keeper
    try:
        found = os.fstat(fd)
    except OSError:
        return None
    return fd if (found.st_dev, found.st_ino) == identity else None


def fork_keeper() -> None:
    """Fork. The caller goes on in the child, which watches this process through a pipe (see `orphaned`); this
    process stays behind as the child's keeper: it dies with its own parent, waits for the child, exits as it did."""
    global _keeper
    parent = _parent or os.getppid()
    alive_read, alive_write = os.pipe()  # held by the keeper: the child sees EOF once the keeper is gone
    child = os.fork()
    if child == 0:
        os.close(alive_write)
        if keeper_fd() is not None:  # a watch on another process, which this child must not keep
            os.close(keeper_fd())
        pipe = os.fstat(alive_read)
        _keeper = (alive_read, (pipe.st_dev, pipe.st_ino))
        return
    die_with_parent()  # the keeper too: its end ends the walled child, and with it any namespace the child is in
    if os.getppid() != parent:  # the parent died before the line above
        os.kill(child, 9)
    os.closerange(3, alive_write)
    os.closerange(alive_write + 1, 1 << 16)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            os._exit(0)
    code = os.waitstatus_to_exitcode(status)
    os._exit(128 - code if code < 0 else min(code, 127))


def fork_watched(new_pid_namespace: bool = False) -> int:
    """Fork a child that watches this process through a pidfd (see `orphaned`), so it needs no keeper: with
    `new_pid_namespace` (CAP_SYS_ADMIN), as the first process of a PID namespace of its own, while this process
    stays in its own. Returns 0 in the child and the child's pid here. Raises OSError with this process as it was
    (no pidfds on this kernel: see `pidfds`), or Stranded if it could not be put back in its own PID namespace."""
    global _keeper, _watched
    own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC) if new_pid_namespace else None
    watch = None
    try:
        watch = os.pidfd_open(os.getpid())
        if own is not None:
            unshare(CLONE_NEWPID)
        child = -1
        try:
            child = os.fork()
        finally:
            if child != 0 and own is not None:
                _back_in(own)
        if child == 0:
            found = os.fstat(watch)
            _keeper, _watched, watch = (watch, (found.st_dev, found.st_ino)), True, None
        return child
    finally:
        if own is not None:
            os.close(own)
        if watch is not None:
            os.close(watch)


class Stranded(BaseException):
    """This process's children would be born in another PID namespace than its own: it must fork nothing more."""


def _back_in(own: int) -> None:
    """Make this process's next children be born in its own PID namespace again, and check that they will be."""
    try:
        setns(own, CLONE_NEWPID)
        back = os.stat("/proc/self/ns/pid_for_children").st_ino == os.fstat(own).st_ino
    except OSError as e:
        raise Stranded(str(e)) from None
    if not back:
        raise Stranded("setns left this process's children in another PID namespace")


def watched() -> bool:
    """Whether this process was forked by `fork_watched`: it watches its parent, and needs no keeper."""
    return _watched


def pidfds() -> bool:
    """Whether this kernel gives pidfds (Linux 5.3 and later), which `fork_watched` and `orphaned` rely on."""
    global _pidfds
    if _pidfds is None:
        try:
            os.close(os.pidfd_open(os.getpid()))
            _pidfds = True
        except (AttributeError, OSError):
            _pidfds = False
    return _pidfds


# --- users and capabilities ----------------------------------------------------------------------------------


def has_capability(cap: int) -> bool:
    try:
        with open("/proc/self/status") as f:
            line = next(x for x in f if x.startswith("CapEff:"))
        return bool(int(line.split()[1], 16) >> cap & 1)
    except (OSError, StopIteration, ValueError):
        return False


def in_initial_user_namespace() -> bool:
    try:
        with open("/proc/self/uid_map") as f:
            return f.read().split() == ["0", "0", "4294967295"]
    except OSError:
        return not is_linux()


def enter_user_namespace(uid: int = INNER, gid: int = INNER) -> None:
    """Make a user namespace in which this process is `uid`, holding every capability there (and none outside)
    until `drop_capabilities`. Only this process's own user is mapped: no setuid helper is needed."""
    outer_uid, outer_gid = os.geteuid(), os.getegid()
    unshare(CLONE_NEWUSER)
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {outer_uid} 1"), ("gid_map", f"{gid} {outer_gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def become(uid: int, gid: int) -> None:
    """Switch to another of the machine's users for good; stay dumpable, so /proc/self stays ours (a user
    namespace's maps are written there)."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    prctl(PR_SET_DUMPABLE, 1)


def drop_capabilities() -> None:
    """Give up every capability, for good (the bounding set too, so no program run later gets one back)."""
    for cap in range(64):
        prctl(PR_CAPBSET_DROP, cap)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    _check(libc().capset(header, data), "capset")
    prctl(PR_SET_NO_NEW_PRIVS, 1)


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


# --- resource limits -----------------------------------------------------------------------------------------


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
