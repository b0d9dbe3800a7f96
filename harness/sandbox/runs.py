"""What one run holds on the machine (users, cgroup, folders, processes) and how all of it is given back.

The sandbox server makes a `Run` before it forks the run's test process, and ends it when the caller is done:
`stop` kills every process of the run (before the caller is answered), `release` removes the rest. Neither raises:
a step that fails is skipped, and the next steps still run. Loaded by the sandbox server by name.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

import cgroups
import slots
import tidy


class Machine:
    """What the server found it may use for runs: per-run users (`lock_folder`), per-run cgroups, a base folder."""

    def __init__(self, ladder, base_dir):
        self.ladder, self.base_dir = ladder, base_dir
        self.root = os.geteuid() == 0 and ladder.own_users
        self.lock_folder = slots.lock_folder() if self.root else None
        self.cgroups, why = cgroups.detect(f"spec2code-probe-{os.getpid()}")
        self.notes = []
        if self.root and not self.lock_folder:
            self.notes.append("no private folder for run locks, so runs share one user (nobody)")
        if why:
            self.notes.append(f"no per-run cgroup: {why}" if not self.cgroups else why)
        self.held = []  # the slots of the runs in progress

    def new_run(self, number: int) -> Run:
        """A run's users, cgroup and folders. Raises OSError if it cannot have them."""
        folder = os.path.join(self.base_dir, f"run-{number}")
        slot = None
        if self.lock_folder:
            slot = slots.acquire(self.lock_folder)
            if slot is None:
                raise OSError(f"all {slots.SLOTS} run slots are taken")
            self.held.append(slot)
        run = Run(self, number, folder, slot)
        if self.cgroups:
            name = f"spec2code-{slot.number}" if slot else f"spec2code-{os.getpid()}-{number}"
            try:
                run.cgroups = self.cgroups.create(name)
            except OSError:
                run.cgroups = []
        # With namespaces each side's folder lives in its own tmpfs, and nothing of the run on the machine's disk: a
        # folder made and removed there for nothing cost 0.3 ms of the server's time a run (its removal waited for the
        # disk to discard its block).
        if not self.ladder.namespaces:
            os.makedirs(folder)
            for path, owner in ((run.tests_dir, run.tests_uid), (run.solution_dir, run.solution_uid)):
                os.makedirs(path, mode=0o700)
                os.chown(path, owner, owner)
        return run


class Run:
    """One run: its folder, its slot (users) if any, its cgroups, and the pid of its first process."""

    def __init__(self, machine: Machine, number: int, folder: str, slot):
        self.machine, self.number, self.folder, self.slot = machine, number, folder, slot
        self.cgroups: list[str] = []
        self.pid = None
        self.ended = self.scrubbed = False  # whether its first process was reaped; whether nothing of it is left
        self.joined = True  # whether its first process is in its cgroups (it says so when ready); if not, never trust them
        self.outlived = ""  # what of the run was still alive after it was killed: the caller reports it, never a verdict
        self.tests_dir = os.path.join(folder, "tests")
        self.solution_dir = os.path.join(folder, "solution")
        if slot:
            self.tests_uid, self.solution_uid = slot.tests, slot.solution
        elif machine.root:
            self.tests_uid = self.solution_uid = 65534
        else:
            self.tests_uid = self.solution_uid = os.getuid()

    def forget_others(self) -> None:
        """In the run's first process: drop the other runs' slot locks it inherited from the server."""
        slots.forget([s for s in self.machine.held if s is not self.slot])

    def stop(self, reap) -> None:
        """Kill every process of the run; return once they are gone and reaped (`reap` reaps the server's orphans).
        Never raises."""
        pid = self.pid
        steps = (lambda: setattr(self, "ended", _end_tree(pid)), lambda: cgroups.kill(self.cgroups), reap,
                 lambda: self._wait_until_empty(reap), self._kill_users, reap)
        for step in steps:
            try:
                step()
            except slots.Outlived as e:
                self.outlived = str(e)
            except Exception:  # noqa: BLE001 - the next steps still run
                pass
        if not self.ended and not self.outlived:
            self.outlived = "the run's first process was not seen to end within 10 s of killing"

    def _wait_until_empty(self, reap, patience: float = 5.0):
        """Return once the run's cgroups count no task, reaping what reaches the server meanwhile. A killed process
        leaves cgroup.procs while it is still exiting, and one whose parent was itself exiting reaches the server only
        after a reap has found nothing: on a busy machine a solution's daemon was still there when run() returned.
        Only where the count can be read (the pids controller) and the run's first process joined its cgroups."""
        if not (self.cgroups and self.joined and cgroups.counted(self.cgroups)):
            return
        deadline = time.monotonic() + patience
        while not cgroups.empty(self.cgroups):
            if time.monotonic() >= deadline:
                raise slots.Outlived(f"a process of the run was still alive {patience:g} s after it was killed")
            reap()
            time.sleep(0.001)

    def _kill_users(self):
        """Without namespaces: kill what the run's users still run, and remove what they left in the machine's
        shared folders and System V IPC, before the caller (or the next run) can see it. (With namespaces, the end of
        the run's PID namespace has killed everything, and nothing else was the machine's to touch.)"""
        if self.slot and not self.machine.ladder.namespaces:
            # No process leaves its cgroup: once the run's cgroup is empty, its users run nothing more. Nor does one
            # leave the server's tree: it is their subreaper, and has reaped them all, so only users seen are killed.
            slots.scrub(self.slot, processes=not (self.cgroups and self.joined and cgroups.empty(self.cgroups)),
                        seen_first=True)
            self.scrubbed = True
        else:
            self.scrubbed = self.ended

    def release(self) -> None:
        """Remove the run's cgroups and folder, scrub and free its slot. Never raises."""
        steps = [lambda: cgroups.remove(self.cgroups), lambda: tidy.remove_tree(self.folder)]
        if self.slot:  # scrubbed in stop() where the run could touch the machine; with namespaces, nothing to scrub
            steps.append(lambda: slots.release(self.slot, scrubbed=self.scrubbed))
            steps.append(lambda: self.machine.held.remove(self.slot))
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001
                pass


def _end_tree(pid: int, patience: float = 10.0) -> bool:
    """SIGKILL the run's first process (the test process, or its keeper), its children (the solution's process, or
    the test process under its keeper: each the first of a PID namespace, whose end ends all in it) and their process
    groups; wait until each has ended, woken by the kernel the moment
    it does (no polling), and reap them. True once the first process is reaped."""
    targets = _children(pid) + [pid]
    watched = []
    for target in targets:
        try:
            watched.append(os.pidfd_open(target))
        except (AttributeError, OSError):  # gone already, or a kernel without pidfds: _wait polls below
            pass
        for who in (target, -target):
            try:
                os.kill(who, signal.SIGKILL)
            except OSError:
                pass
    deadline = time.monotonic() + patience
    try:
        while watched and time.monotonic() < deadline:
            ended, _, _ = select.select(watched, [], [], max(0.0, deadline - time.monotonic()))
            for fd in ended:
                watched.remove(fd)
                os.close(fd)
    finally:
        for fd in watched:
            os.close(fd)
    for target in targets[:-1]:  # ours to reap if their parent ended first (we are a subreaper)
        try:
            os.waitpid(target, os.WNOHANG)
        except ChildProcessError:
            pass
    return _wait(pid, patience)


def _wait(pid: int, patience: float = 10.0) -> bool:
    """Reap the run's first process, waiting for it to end (at most `patience` seconds); True once reaped."""
    deadline = time.monotonic() + patience
    while True:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return True
        if done:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.001)


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        pass
    return found


def children() -> list[int]:
    """This process's own children."""
    return _children(os.getpid())


def close_all_but(*keep):
    """In a run's first process, just forked from the server: close every descriptor it inherited but stdio,
    sys.stdout's and `keep` (the server's control socket above all, so no test code can send the server requests)."""
    keep = sorted({0, 1, 2, *keep, *(f.fileno() for f in (sys.stdout, sys.stderr) if _has_fd(f))})
    low = 3
    for fd in keep + [1 << 16]:
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1


def _has_fd(f):
    try:
        return f.fileno() >= 0
    except (OSError, ValueError, AttributeError):
        return False
