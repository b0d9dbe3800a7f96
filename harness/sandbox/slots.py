"""Per-run users: each run takes a slot, two unprivileged UIDs of its own from a reserved range, for as long as it runs.

As isolate does with box ids: one lock file per slot in a folder only root may write, held with flock while the
run lasts, so every process on the machine (every sandbox server, every checkout of the lab) takes a different
slot, and a slot whose holder died is free again. The files are never deleted (that would race). A slot is
scrubbed before use and after: whatever its users still run is killed, what they own in the shared folders and in
System V IPC is deleted, so nothing a run leaves is seen by the next, and no per-user count (processes, memory
locks, message queues, signals) is ever shared by two runs. Root only; loaded by the sandbox server by name.
"""

from __future__ import annotations

import fcntl
import os
import random
import signal
import stat
import time

FIRST_UID = 1_900_000_000  # an unused range of the machine's users (see systemd's UIDS-GIDS), 2 per slot
SLOTS = 1000
LOCK_FOLDERS = ("/run/spec2code-slots", "/var/run/spec2code-slots", "/tmp/.spec2code-slots")
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock")  # any user may write there
CLEAN = b"clean "  # what a slot's lock file starts with once its last run has been scrubbed


class Slot:
    """One run's users: `tests` for the test process, `solution` for the solution's process (same number as gid)."""

    def __init__(self, number: int, fd: int):
        self.number, self.fd = number, fd
        self.tests, self.solution = FIRST_UID + 2 * number, FIRST_UID + 2 * number + 1
        self.uids = (self.tests, self.solution)

    def __repr__(self):
        return f"Slot({self.number}, uids={self.uids})"


def lock_folder() -> str | None:
    """The folder of lock files, made if need be; None if none can be trusted (root-owned, private, no symlink)."""
    for folder in LOCK_FOLDERS:
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            st = os.lstat(folder)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_uid == 0 and not st.st_mode & 0o077:
            return folder
    return None


def acquire(folder: str) -> Slot | None:
    """Take a free slot, scrubbed; None if every slot is taken (or cannot be scrubbed)."""
    start = random.randrange(SLOTS)
    for i in range(SLOTS):
        number = (start + i) % SLOTS
        try:
            fd = os.open(f"{folder}/{number}", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        slot = Slot(number, fd)
        if os.pread(fd, len(CLEAN), 0) != CLEAN:  # its last holder died before scrubbing it
            try:
                scrub(slot)
            except OSError:  # a process of its users outlives the killing: leave the slot unclean, take another
                os.close(fd)
                continue
        os.pwrite(fd, b"in use", 0)
        return slot
    return None


def release(slot: Slot, scrubbed: bool = True) -> None:
    """Give the slot back, saying whether its run has been scrubbed (so the next holder need not). Never raises."""
    try:
        if scrubbed:
            os.pwrite(slot.fd, CLEAN, 0)
        os.close(slot.fd)
    except OSError:
        pass


def forget(slots) -> None:
    """In a forked child: close the lock files it inherited, so only the server holds them."""
    for slot in slots:
        try:
            os.close(slot.fd)
        except OSError:
            pass


class Outlived(OSError):
    """A process of a slot's users was still alive after `patience` seconds of killing (one stuck in the kernel, or a
    machine too busy to let it end): the slot is not clean, and its run or child must say so."""


def scrub(slot: Slot, shared: bool = True, processes: bool = True, patience: float = 5.0,
          seen_first: bool = False) -> None:
    """Kill every process of the slot's users (unless `processes` is False: the caller knows none is left) and
    return once none is alive, exiting ones included; with `shared`, delete their System V IPC and their files in the
    shared folders (a run without namespaces of its own can leave them there). Outlived, after all of that, if a
    process of theirs was still alive after `patience` seconds: never a silent return while one runs.

    Each user is killed whether a look at /proc sees a process of theirs or not: one that forks and exits while
    /proc is read is never seen (a killing in CI left one running). With `seen_first`, only the users seen are: for a
    caller that has reaped every process of theirs as their subreaper, so that none could have left its tree."""
    users = live_users(slot.uids) if seen_first else slot.uids
    left = [uid for uid in (users if processes else ()) if not kill_user(uid, patience)]
    if shared:
        remove_ipc(slot.uids)
        for folder in dict.fromkeys(map(os.path.realpath, SHARED_FOLDERS)):  # /var/lock is often /run/lock
            remove_files_of(folder, slot.uids)
    if left:
        named = sorted(live_users(left)) or left  # the one seen running, rather than one that may have none
        raise Outlived(f"a process of user {named[0]} was still alive after {patience:g} s of killing")


def kill_user(uid: int, patience: float = 5.0) -> bool:
    """SIGKILL every process of `uid`, forks included, until none is alive; False if one still was after `patience`
    seconds. A child that becomes `uid` sends kill(-1) (the kernel signals every process the sender may signal, all
    at once, and a process in the middle of a fork cannot finish it with SIGKILL pending: a fork bomb cannot outrun
    it) until it sees no process of `uid` left but zombies, which are their parents' to reap. A killed process that
    is still exiting counts as alive.

    Once it is `uid`, the processes it hunts may signal it too. It blocks every signal it can; one stopped (SIGSTOP)
    is continued, and one killed is followed by another, until the time is up: a process of `uid` that stops or kills
    whatever it may (in a loop) neither hangs the caller nor outlives the killing."""
    deadline = time.monotonic() + patience
    while True:
        gone = _kill_as(uid, deadline)
        if gone is not None:
            return gone
        if time.monotonic() >= deadline:  # every killer was killed: whoever killed the last may still run
            return False


def _kill_as(uid: int, deadline: float) -> bool | None:
    """One killer as `uid`, until `deadline`: whether it saw no process of `uid` left, or None if it was killed."""
    pid = os.fork()
    if pid == 0:
        gone = False
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())  # a signal from `uid` waits, unheard
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            while not gone and time.monotonic() < deadline:
                try:
                    os.kill(-1, signal.SIGKILL)
                except ProcessLookupError:  # no process at all but init and this one
                    pass
                gone = not live_users([uid], but=os.getpid())
        except BaseException:  # noqa: BLE001 - said as "not gone"
            gone = False
        os._exit(0 if gone else 1)
    try:
        while True:
            _, status = os.waitpid(pid, os.WUNTRACED)
            if not os.WIFSTOPPED(status):
                break
            if time.monotonic() >= deadline + 1:  # stopped again and again: it cannot get on, so end it
                os.kill(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGCONT)
    except BaseException:  # Ctrl-C here: no killer of ours is left behind, stopped for ever
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        return None
    return os.waitstatus_to_exitcode(status) == 0


def live_users(uids, but: int = 0) -> set[int]:
    """Which of `uids` run a process that is alive (as its real or saved user: whom kill(-1) reaches): any but a
    zombie, and a zombie too while a thread of its own still runs (its first thread ended, the others did not)."""
    wanted, found = {str(uid) for uid in uids}, set()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != but:
            try:
                with open(f"/proc/{name}/status", "rb") as f:
                    head = f.read(4096).decode(errors="replace")
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in head.splitlines()
                          if line.startswith(("State:", "Uid:", "Threads:")))
            ids = fields.get("Uid", "").split()
            zombie = fields.get("State", "").strip().startswith("Z") and fields.get("Threads", "1").strip() == "1"
            if len(ids) >= 3 and not zombie:
                found |= {ids[0], ids[2]} & wanted
    return {int(uid) for uid in found}


def remove_ipc(uids) -> None:
    """Delete the System V shared memory, semaphores and message queues the users own or made."""
    libc = None
    for kind, remove in (("shm", "shmctl"), ("sem", "semctl"), ("msg", "msgctl")):
        try:
            with open(f"/proc/sysvipc/{kind}") as f:
                header, *rows = [line.split() for line in f]
        except (OSError, ValueError):
            continue
        columns = {name: i for i, name in enumerate(header)}
        for row in rows:
            try:
                owners = {int(row[columns["uid"]]), int(row[columns["cuid"]])}
                ident = int(row[columns[{"shm": "shmid", "sem": "semid", "msg": "msqid"}[kind]]])
            except (KeyError, ValueError, IndexError):
                continue
            if owners & set(uids):
                if libc is None:
                    import ctypes

                    libc = ctypes.CDLL(None, use_errno=True)
                getattr(libc, remove)(ident, 0, 0)  # IPC_RMID is 0


def remove_files_of(folder: str, uids, depth: int = 3) -> None:
    """Delete what the users own in `folder`, and in the folders below that anyone may write (only there can a user
    leave files in a folder it does not own), a few levels down. Never raises."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if st.st_uid in uids:
            _tidy().remove_tree(entry.path)
        elif stat.S_ISDIR(st.st_mode) and st.st_mode & 0o002 and depth > 1:
            remove_files_of(entry.path, uids, depth - 1)


def _tidy():
    import importlib

    package = __name__.rpartition(".")[0]
    return importlib.import_module(f"{package}.tidy" if package else "tidy")
