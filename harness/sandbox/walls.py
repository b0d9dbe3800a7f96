"""Operating-system walls for sandboxed code, as a ladder: the strongest of namespaces, user, process this machine allows.

Loaded by the sandbox server by name (it must not import the `harness` package, which holds the held-out tests),
and by the grader's agent runner. `enter(level, ...)` puts the whole ladder up around one process and says which
level it reached; `choose`, `begin` and `finish` are its three steps, for a process that must fork in between.
Over 300 lines because the ladder is one idea: each level's steps and what it cannot enforce sit side by side.
"""

from __future__ import annotations

import ctypes
import importlib
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
LEVELS = ("namespaces", "user", "process")  # strongest first


def _sibling(name):
    """A module beside this one, whether this one was loaded through the `harness` package or by name."""
    package = __name__.rpartition(".")[0]
    return importlib.import_module(f"{package}.{name}" if package else name)


rootfs = _sibling("rootfs")
seccomp = _sibling("seccomp")
enter_minimal_root, runtime_paths, mount = rootfs.enter_minimal_root, rootfs.runtime_paths, rootfs.mount

_libc = None
_parent = None  # the process whose end must end this one, when it is this process's parent (see attach)
_keeper = None  # in the walled child: (fd, identity) of the read end of a pipe its keeper holds open: EOF = gone


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
        return bool(select.select([fd], [], [], 0)[0])  # readable: the keeper's end is closed
    return _parent is not None and os.getppid() != _parent


def keeper_fd() -> int | None:
    """The descriptor on which a walled child watches its keeper, if it is still open (a caller that closes every
    descriptor before `finish` should keep this one)."""
    if _keeper is None:
        return None
    fd, identity = _keeper
    try:
        found = os.fstat(fd)
    except OSError:
        return None
    return fd if (found.st_dev, found.st_ino) == identity else None


def unshare(flags: int) -> None:
    _check(libc().unshare(ctypes.c_int(flags)), "unshare")


def namespaces_available() -> str | None:
    """None if this process can make namespaces as root here, else the reason it cannot."""
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


# --- the ladder ----------------------------------------------------------------------------------------------

# What each level cannot enforce, by wall; a level lacks every wall named here for it. The sandbox's tests skip an
# attack that needs a wall the level lacks, with this sentence as the reason.
LACKS = {
    "user": {
        "read_files": "the solution can read every file any user may read (the held-out tests on disk among them)",
        "shared_folders": "it can write in the machine's shared folders (/tmp, /dev/shm) while it runs (what it "
                          "leaves there is deleted when the run ends)",
        "processes": "it can see the machine's other processes",
    },
    "process": {
        "read_files": "the solution runs as your user: it can read the file system as you can",
        "write_files": "it can write and delete your files",
        "shared_folders": "it can leave files in the machine's shared folders (/tmp, /dev/shm) for later runs",
        "signals": "it can signal your other processes",
        "processes": "it can see your other processes",
        "own_limits": "runs share your user's process limit",
    },
}


class Ladder:
    """The level reached on this machine: `level` (namespaces, user, process), `via` (how namespaces were had:
    "root" or "user namespace"), `lacks` ({wall: sentence}) and `notes` (sentences for people)."""

    def __init__(self, level: str, via: str = "", why: str = ""):
        self.level, self.via = level, via
        self.lacks = dict(LACKS.get(level, {}))
        self.no_filter = seccomp.supported()  # None, or why no seccomp filter can be had here
        if self.no_filter and level != "namespaces":
            self.lacks["network"] = "the solution can reach the network"
        self.notes = ([why] if why else []) + list(self.lacks.values())
        if self.no_filter:
            self.notes.append(self.no_filter + ", so keyring and namespace calls are not refused")

    def describe(self) -> dict:
        return {"level": self.level, "via": self.via, "lacks": self.lacks, "notes": self.notes}


def _probe(steps) -> str | None:
    """Run `steps` in a throwaway child; None if they all worked, else what went wrong."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            steps()
            os._exit(0)
        except BaseException as e:  # noqa: BLE001 - any failure is the answer
            os.write(w, str(getattr(e, "strerror", None) or e).encode()[:200])
            os._exit(1)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        said = f.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    return None if status == 0 else (said or "failed")


def _namespaces_work():
    """What a run does at the namespaces level, in a throwaway child: namespaces, then a minimal root over /tmp."""
    unshare(CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC)
    enter_minimal_root("/tmp", os.geteuid(), os.getegid(), readonly=[os.path.realpath(sys.prefix)], proc=False)


def _become(uid, gid):
    """Switch to another of the machine's users for good; stay dumpable, so /proc/self stays ours (the user
    namespace's maps are written there)."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    prctl(PR_SET_DUMPABLE, 1)


def _other_users_can_run_python():
    """Without a mount namespace, a run's own user must reach the runtime and the lab's packages where they are."""
    _become(NOBODY, NOBODY)
    for folder in {os.path.dirname(os.__file__), os.path.realpath(sys.prefix)}:
        try:
            os.listdir(folder)
        except OSError:
            raise OSError(f"other users cannot read {folder}: install Python where every user can") from None


def _user_namespaces_work():
    if os.geteuid() == 0 and in_initial_user_namespace():
        _become(NOBODY, NOBODY)
    enter_user_namespace()
    _namespaces_work()


def choose(asked: str = "auto") -> Ladder:
    """The strongest level this machine allows, up to `asked` (auto = namespaces); tried in throwaway children."""
    if asked == "process":
        return Ladder("process", why="process isolation was asked for (SPEC2CODE_ISOLATION=process)")
    if not is_linux():
        return Ladder("process", why=f"no Linux namespaces or user switch on {sys.platform}")
    root = os.geteuid() == 0 and in_initial_user_namespace()
    why = []
    if asked in ("auto", "namespaces"):
        if root and has_capability(CAP_SYS_ADMIN):
            failed = _probe(_namespaces_work)
            if failed is None:
                return Ladder("namespaces", "root")
            why.append(f"namespaces failed as root ({failed})")
        failed = _probe(_user_namespaces_work)
        if failed is None:
            return Ladder("namespaces", "user namespace")
        why.append(f"no namespaces through a user namespace ({failed})")
    else:
        why.append("user-level isolation was asked for (SPEC2CODE_ISOLATION=user)")
    if root and has_capability(CAP_SETUID) and has_capability(CAP_SETGID):
        failed = _probe(_other_users_can_run_python)
        if failed is None:
            return Ladder("user", why="; ".join(why))
        why.append(f"runs cannot have users of their own ({failed})")
    elif not root:
        why.append("not running as root, so no user switch")
    return Ladder("process", why="; ".join(why))


def begin(ladder: Ladder, uid: int, gid: int, *, fork: bool = False) -> None:
    """First step, in the process that will become the walled one: at the namespaces level, make its user (when
    had through a user namespace) and PID namespaces, then fork (elsewhere, fork only if `fork`). The caller goes on
    in the child, the first process of the new PID namespace; this process stays behind as its keeper, waits for it
    and exits with its status. `uid`, `gid`: the machine's user the run gets (root only; a normal user keeps theirs).
    """
    if ladder.level == "namespaces":
        if ladder.via == "user namespace":
            if os.geteuid() == 0 and in_initial_user_namespace():
                _become(uid, gid)
            enter_user_namespace()
        unshare(CLONE_NEWPID)
    elif not fork:
        return
    global _keeper
    parent = _parent or os.getppid()
    alive_read, alive_write = os.pipe()  # held by the keeper: the child sees EOF once the keeper is gone
    child = os.fork()
    if child == 0:
        os.close(alive_write)
        pipe = os.fstat(alive_read)
        _keeper = (alive_read, (pipe.st_dev, pipe.st_ino))
        return
    die_with_parent()  # the keeper too: its end ends the walled child (see finish), and with it the namespace
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


def finish(ladder: Ladder, uid: int, gid: int, *, mountpoint: str = "", workdir: str = "/work", readonly=(),
           hidden=(), proc: bool = False, limits: dict | None = None) -> list[str]:
    """Second step, in the walled process itself: its own mount (a minimal root at `mountpoint`), network and IPC
    namespaces; `limits` (see limit_resources); then user `uid` (root, user level) or no capabilities (a user
    namespace), the seccomp filter, and death with its parent. Return what could not be done."""
    missing = []
    if ladder.level == "namespaces":
        unshare(CLONE_NEWNET | CLONE_NEWIPC)
        inside = (INNER, INNER) if ladder.via == "user namespace" else (uid, gid)
        missing += enter_minimal_root(mountpoint, *inside, readonly=readonly, hidden=hidden, proc=proc,
                                      workdir=workdir)
    elif workdir:
        os.chdir(workdir)
    if limits:
        missing += [f"{name} refused" for name in limit_resources(**limits)]
    if ladder.level == "namespaces" and ladder.via == "user namespace":
        drop_capabilities()
    elif ladder.level in ("namespaces", "user"):
        drop_privileges(uid, gid)
    else:
        prctl(PR_SET_NO_NEW_PRIVS, 1)
    if not ladder.no_filter:
        failed = seccomp.install(network=ladder.level == "namespaces")
        if failed:
            missing.append(failed)
    die_with_parent()  # again: a change of user clears it
    if orphaned():  # the keeper or the parent died before the line above: nothing may run on unwatched
        os._exit(KILLED)
    keeper = keeper_fd()
    if keeper is not None:
        os.close(keeper)
    return missing


def enter(asked: str = "auto", *, uid: int = NOBODY, gid: int = NOBODY, mountpoint: str, workdir: str = "/work",
          readonly=(), hidden=(), proc: bool = False, limits: dict | None = None) -> dict:
    """Wall this process in with the strongest level this machine allows, up to `asked`; return what it reached:
    {"level", "via", "lacks", "notes"}. At the namespaces level this process forks (see `begin`): the caller goes
    on walled in a child, so call it before anything the caller must keep (threads, open connections)."""
    ladder = choose(asked)
    begin(ladder, uid, gid)
    ladder.notes += finish(ladder, uid, gid, mountpoint=mountpoint, workdir=workdir, readonly=readonly,
                           hidden=hidden, proc=proc, limits=limits)
    return ladder.describe()
