"""The walls for sandboxed code, as a ladder: the strongest level of harness/levels.py this machine allows, put up.

Loaded by the sandbox server by name (it must not import the `harness` package, which holds the held-out tests),
and by the grader's agent runner. `choose` finds the level once a process (in throwaway children); `enter(ladder,
...)` puts it up around one process, and `begin` and `finish` are its two steps, for a process that must fork in
between. The Linux calls they are made of are in linux.py, rootfs.py and seccomp.py.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys


def _sibling(name):
    """A module beside this one, whether this one was loaded through the `harness` package or by name."""
    package = __name__.rpartition(".")[0]
    return importlib.import_module(f"{package}.{name}" if package else name)


def _from_harness(name):
    """A module of harness/ that imports nothing: through the package, or by path when this one was loaded by name."""
    package = __name__.rpartition(".")[0]
    if package:
        return importlib.import_module(f"{package.rpartition('.')[0]}.{name}")
    if name not in sys.modules:
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), f"{name}.py")
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


linux = _sibling("linux")
reachable = _sibling("reachable")
rootfs = _sibling("rootfs")
seccomp = _sibling("seccomp")
levels = _from_harness("levels")
ASKED = "asked"  # `via` of the process level when it was asked for (SPEC2CODE_ISOLATION=process): it may run as root


def as_root() -> bool:
    """Whether this process is the machine's root (not root inside a user namespace of its own)."""
    return os.geteuid() == 0 and linux.in_initial_user_namespace()


def _can_switch_users() -> bool:
    return linux.has_capability(linux.CAP_SETUID) and linux.has_capability(linux.CAP_SETGID)


def _missing() -> str:
    """What keeps runs from having a user of their own here, as root, and how to fix it."""
    if not linux.is_linux():
        return f"there is no user switch on {sys.platform}; run the lab as a normal user"
    if not _can_switch_users():
        return ("it cannot switch users (CAP_SETUID and CAP_SETGID are missing); give it those or run it as a normal "
                "user")
    for folder in {os.path.realpath(p): None for p in (sys.base_prefix, os.path.dirname(os.__file__), sys.prefix)}:
        if not reachable.readable_by_all(folder):
            return f"Python at {folder} cannot be read by other users; install Python where every user can read it"
    return "no user of its own could be had for a run; run the lab as a normal user"


def wants_a_readable_runtime(ladder) -> bool:
    """Whether runs could have stronger walls here if they could read the Python runtime: as root, below the
    namespaces level, not asked for less, able to switch users (see reachable.rerun_readable)."""
    return as_root() and not ladder.namespaces and ladder.via != ASKED and _can_switch_users()


class Ladder:
    """The level reached on this machine: `level` (a name of harness/levels.py), `via` (how namespaces were had:
    "root" or "user namespace"; ASKED for a process level asked for), `lacks` ({wall: sentence}), `notes`
    (sentences for people), `refused`: why no code may run at all (the process level as root, not asked for), and
    the Python a walled process is started with (`python`, with `python_env` added to its environment)."""

    def __init__(self, level: str, via: str = "", why: str = ""):
        self.level, self.via = level, via
        self.python, self.python_env = sys.executable, {}
        self.lacks = dict(levels.TABLE[level].lacks)
        self.namespaces = level == levels.NAMESPACES  # runs in namespaces of their own, in a minimal root
        self.own_users = levels.at_least(level, levels.USER)  # runs as users of their own (root gives them)
        self.no_filter = seccomp.supported()  # None, or why no seccomp filter can be had here
        if not self.no_filter:  # built here once: each walled process forked from this one only loads it
            seccomp.prepare(network=self.namespaces)
        if self.no_filter and not self.namespaces:
            self.lacks["network"] = "the solution can reach the network"
        self.notes = ([why] if why else []) + list(self.lacks.values())
        self.refused = ""
        if level == levels.PROCESS and via != ASKED and as_root():
            self.refused = (f"the sandbox will not run untrusted code as root: {_missing()}, or set "
                            f"SPEC2CODE_ISOLATION={levels.PROCESS} to accept running it as root")
        if self.no_filter:
            self.notes.append(self.no_filter + ", so keyring and namespace calls are not refused")

    def describe(self) -> dict:
        return {"level": self.level, "via": self.via, "lacks": self.lacks, "notes": self.notes}


def on_a_readable_copy(ladder: Ladder) -> Ladder:
    """For a process that starts its walled processes with a Python of its choice (the grader's agent child): where
    runs would have users of their own but for a Python they cannot read, a `user` ladder on a copy every user can
    read (see reachable.readable_copy); else `ladder`, with a note when no copy could be made."""
    if ladder.level != levels.PROCESS or not wants_a_readable_runtime(ladder) or not reachable.unreadable():
        return ladder
    try:
        python, env = reachable.readable_copy()
    except OSError as e:
        ladder.notes.append(f"no copy of Python that other users can read could be made ({e})")
        return ladder
    copied = Ladder(levels.USER, why="Python runs from a copy that every user can read, in "
                                     f"{os.path.dirname(os.path.dirname(python))}")
    copied.python, copied.python_env = python, env
    return copied


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
    linux.unshare(linux.CLONE_NEWPID | linux.CLONE_NEWNET | linux.CLONE_NEWIPC)
    rootfs.enter_minimal_root("/tmp", os.geteuid(), os.getegid(), readonly=[os.path.realpath(sys.prefix)],
                              proc=False)


def _other_users_can_run_python():
    """Without a mount namespace, a run's own user must reach the runtime and the lab's packages where they are."""
    linux.become(linux.NOBODY, linux.NOBODY)
    for folder in {os.path.dirname(os.__file__), os.path.realpath(sys.prefix)}:
        try:
            os.listdir(folder)
        except OSError:
            raise OSError(f"other users cannot read {folder}: install Python where every user can") from None


def _user_namespaces_work():
    if os.geteuid() == 0 and linux.in_initial_user_namespace():
        linux.become(linux.NOBODY, linux.NOBODY)
    linux.enter_user_namespace()
    _namespaces_work()


def choose(asked: str = "auto") -> Ladder:
    """The strongest level this machine allows, up to `asked` (auto = the strongest); tried in throwaway children."""
    namespaces, user, process = levels.NAMESPACES, levels.USER, levels.PROCESS
    if asked == process:
        return Ladder(process, ASKED, why=f"{process} isolation was asked for (SPEC2CODE_ISOLATION={process})")
    if not linux.is_linux():
        return Ladder(process, why=f"no Linux namespaces or user switch on {sys.platform}")
    root = as_root()
    why = []
    if asked in ("auto", namespaces):
        if root and linux.has_capability(linux.CAP_SYS_ADMIN):
            failed = _probe(_namespaces_work)
            if failed is None:
                return Ladder(namespaces, "root")
            why.append(f"namespaces failed as root ({failed})")
        failed = _probe(_user_namespaces_work)
        if failed is None:
            return Ladder(namespaces, "user namespace")
        why.append(f"no namespaces through a user namespace ({failed})")
    else:
        why.append(f"user-level isolation was asked for (SPEC2CODE_ISOLATION={user})")
    if root and _can_switch_users():
        failed = _probe(_other_users_can_run_python)
        if failed is None:
            return Ladder(user, why="; ".join(why))
        why.append(f"runs cannot have users of their own ({failed})")
    elif not root:
        why.append("not running as root, so no user switch")
    return Ladder(process, why="; ".join(why))


def fork_to_wall(ladder: Ladder) -> int:
    """Fork the process that will be walled in (`begin`, then `finish`, in the child); 0 in the child, its pid here.
    Where the kernel gives pidfds, the child watches this process through one and needs no keeper (`begin` then has
    nothing left to do), unless its namespaces come through a user namespace, which only the child can make: as root
    at the namespaces level, it is born the first process of a PID namespace of its own, while this process stays in
    its own; below that level, a plain child. Elsewhere a plain fork, and `begin` forks the keeper."""
    if linux.pidfds() and (not ladder.namespaces or ladder.via == "root"):
        return linux.fork_watched(new_pid_namespace=ladder.namespaces)
    return os.fork()


def begin(ladder: Ladder, uid: int, gid: int, *, fork: bool = False) -> None:
    """First step, in the process that will become the walled one: at the namespaces level, make its user (when
    had through a user namespace) and PID namespaces, then fork (elsewhere, fork only if `fork`). The caller goes on
    in the child, the first process of the new PID namespace; this process stays behind as its keeper, waits for it
    and exits with its status. `uid`, `gid`: the machine's user the run gets (root only; a normal user keeps theirs).
    Nothing to do in a process `fork_to_wall` made watched: its PID namespace, if it needs one, is made already.
    """
    if linux.watched():
        return
    if ladder.namespaces:
        if ladder.via == "user namespace":
            if os.geteuid() == 0 and linux.in_initial_user_namespace():
                linux.become(uid, gid)
            linux.enter_user_namespace()
        linux.unshare(linux.CLONE_NEWPID)
    elif not fork:
        return
    linux.fork_keeper()


def finish(ladder: Ladder, uid: int, gid: int, *, mountpoint: str = "", workdir: str = "/work", readonly=(),
           hidden=(), proc: bool = False, limits: dict | None = None) -> list[str]:
    """Second step, in the walled process itself: its own mount (a minimal root at `mountpoint`), network and IPC
    namespaces; `limits` (see linux.limit_resources); then user `uid` (root, user level) or no capabilities (a user
    namespace), the seccomp filter, and death with its parent. Return what could not be done. A refused ladder
    (see Ladder) raises OSError instead: nothing may run behind it."""
    if ladder.refused:
        raise OSError(ladder.refused)
    missing = []
    if ladder.namespaces:
        linux.unshare(linux.CLONE_NEWNET | linux.CLONE_NEWIPC)
        inside = (linux.INNER, linux.INNER) if ladder.via == "user namespace" else (uid, gid)
        missing += rootfs.enter_minimal_root(mountpoint, *inside, readonly=readonly, hidden=hidden, proc=proc,
                                             workdir=workdir)
    elif workdir:
        os.chdir(workdir)
    if limits:
        missing += [f"{name} refused" for name in linux.limit_resources(**limits)]
    if ladder.namespaces and ladder.via == "user namespace":
        linux.drop_capabilities()
    elif ladder.own_users:
        linux.drop_privileges(uid, gid)
    else:
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
    if not ladder.no_filter:
        failed = seccomp.install(network=ladder.namespaces)
        if failed:
            missing.append(failed)
    linux.die_with_parent()  # again: a change of user clears it
    if linux.orphaned():  # the keeper or the parent died before the line above: nothing may run on unwatched
        os._exit(linux.KILLED)
    keeper = linux.keeper_fd()
    if keeper is not None:
        os.close(keeper)
    return missing


def enter(ladder: Ladder, uid: int = linux.NOBODY, gid: int = linux.NOBODY, *, mountpoint: str,
          workdir: str = "/work", readonly=(), hidden=(), proc: bool = False, limits: dict | None = None) -> dict:
    """Wall this process in at the level `choose` found (both steps, see `finish` for the rest); return what it
    reached: {"level", "via", "lacks", "notes"}. At the namespaces level this process forks (see `begin`): the caller
    goes on walled in a child, so call it before anything the caller must keep (threads, open connections)."""
    begin(ladder, uid, gid)
    ladder.notes += finish(ladder, uid, gid, mountpoint=mountpoint, workdir=workdir, readonly=readonly,
                           hidden=hidden, proc=proc, limits=limits)
    return ladder.describe()
