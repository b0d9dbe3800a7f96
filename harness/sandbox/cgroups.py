"""Per-run control groups: each run gets a cgroup of its own with a process count and a memory limit, where it can.

Made as children of the cgroup the sandbox server is in, so a run stays inside whatever limits its caller has:
with cgroup v2 where its controllers reach us, else with the v1 `pids` and `memory` hierarchies, each controller
on its own. Where neither can be written (a container's read-only cgroupfs, a normal user), `detect` says why and
runs go without. Loaded by the sandbox server by name.
"""

from __future__ import annotations

import os
import signal
import time

PIDS_MAX = 600  # tasks (processes and threads) one run may have at once, both sides together
MEMORY_MAX = 2 << 30  # bytes of memory one run may use, tmpfs files included
LIMITS = {  # controller -> {cgroup version: [(file, value)]}, written in this order
    "pids": {1: [("pids.max", PIDS_MAX)], 2: [("pids.max", PIDS_MAX)]},
    "memory": {1: [("memory.limit_in_bytes", MEMORY_MAX), ("memory.memsw.limit_in_bytes", MEMORY_MAX)],
               2: [("memory.max", MEMORY_MAX), ("memory.swap.max", 0)]},
}


class Cgroups:
    """Where per-run cgroups go: {controller: (version, parent folder)}."""

    def __init__(self, parents: dict):
        self.parents = parents

    def describe(self) -> str:
        return ", ".join(f"{name} (v{version})" for name, (version, _) in sorted(self.parents.items()))

    def create(self, name: str) -> list[str]:
        """A fresh cgroup per parent folder, with the limits written; a leftover of the same name is emptied first."""
        made = {}
        for controller, (version, parent) in self.parents.items():
            path = os.path.join(parent, name)
            if path not in made:
                remove([path])
                os.mkdir(path, 0o755)
                made[path] = version
            for file, value in LIMITS[controller][version]:
                try:
                    _write(os.path.join(path, file), str(value))
                except OSError:
                    pass  # memsw / swap files exist only with swap accounting
        return list(made)


def join(paths) -> None:
    """Move this process into the run's cgroups (its children follow).

    A process of one thread moves by its thread where cgroup v1 allows it (the `tasks` file): moving a whole process
    takes a lock that waits for an RCU grace period, and a third of the spare test processes waited 10 ms there."""
    alone = len(os.listdir("/proc/self/task")) == 1
    for path in paths:
        tasks = os.path.join(path, "tasks")  # cgroup v1 only
        _write(tasks if alone and os.path.exists(tasks) else os.path.join(path, "cgroup.procs"), "0")


def kill(paths, patience: float = 2.0) -> None:
    """SIGKILL every process in the cgroups, until they are empty. Never raises."""
    deadline = time.monotonic() + patience
    for path in paths:
        try:
            _write(os.path.join(path, "cgroup.kill"), "1")
        except OSError:
            pass
        while time.monotonic() < deadline:
            try:
                with open(os.path.join(path, "cgroup.procs")) as f:
                    pids = [int(p) for p in f.read().split()]
            except (OSError, ValueError):
                break
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.001)


def _counters(paths) -> list[str]:
    """The pids controller's task counts among the cgroups' files."""
    return [counter for counter in (os.path.join(path, "pids.current") for path in paths) if os.path.exists(counter)]


def counted(paths) -> bool:
    """True if the tasks of the cgroups can be counted (the pids controller is among them): see `empty`."""
    return bool(_counters(paths))


def empty(paths) -> bool:
    """True if no task of the cgroups is left, not even one still exiting or a zombie (False if that cannot be
    known). A task leaves cgroup.procs while it exits, before it is a zombie, so the pids controller's count is
    asked, which drops only once the task is reaped: without it nothing can be known here."""
    counters = _counters(paths)
    try:
        return bool(counters) and all(_read_strict(counter).strip() == "0" for counter in counters)
    except OSError:
        return False


def _read_strict(path: str) -> str:
    with open(path) as f:
        return f.read()


def remove(paths, patience: float = 2.0) -> None:
    """Kill what is in the cgroups and delete them (a dying process keeps its cgroup busy a moment). Never raises."""
    for path in paths:
        if not os.path.isdir(path):
            continue
        kill([path], patience)
        deadline = time.monotonic() + patience
        while True:
            try:
                os.rmdir(path)
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.005)


def detect(probe_name: str) -> tuple[Cgroups | None, str]:
    """Where this process may make per-run cgroups: (Cgroups, "") or (None, why not)."""
    try:
        mounts = _cgroup_mounts()
        mine = _own_cgroups()
    except OSError as e:
        return None, f"no cgroups here ({e.strerror})"
    parents, why = {}, []
    v2 = mounts.get("cgroup2")
    if v2 and "" in mine:
        parent = v2 + mine[""]
        offered = _read(os.path.join(parent, "cgroup.controllers")).split()
        for controller in ("pids", "memory"):
            if controller in offered:
                if _delegate(parent, controller):
                    parents[controller] = (2, parent)
                else:
                    why.append(f"cgroup v2 cannot hand {controller} down from the lab's cgroup (it holds processes)")
    for controller in ("pids", "memory"):
        if controller not in parents and controller in mounts and controller in mine:
            parents[controller] = (1, mounts[controller] + mine[controller])
    usable = {}
    for controller, (version, parent) in parents.items():
        probe = os.path.join(parent, probe_name)
        try:
            os.mkdir(probe)
            os.rmdir(probe)
            usable[controller] = (version, parent)
        except OSError as e:
            why.append(f"{controller} cgroup not writable ({e.strerror})")
    if not usable:
        return None, "; ".join(why) or "no pids or memory cgroup controller here"
    missing = [c for c in ("pids", "memory") if c not in usable]
    return Cgroups(usable), (f"no {missing[0]} cgroup" if missing else "")


def _delegate(parent: str, controller: str) -> bool:
    if controller in _read(os.path.join(parent, "cgroup.subtree_control")).split():
        return True
    try:
        _write(os.path.join(parent, "cgroup.subtree_control"), f"+{controller}")
        return True
    except OSError:
        return False


def _cgroup_mounts() -> dict[str, str]:
    """{"cgroup2": mount point, v1 controller: mount point} from /proc/self/mountinfo."""
    found = {}
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, (fstype, _source, options) = left.split(), (right.split() + ["", "", ""])[:3]
            if fstype == "cgroup2":
                found.setdefault("cgroup2", fields[4])
            elif fstype == "cgroup":
                for option in options.split(","):
                    found.setdefault(option, fields[4])
    return found


def _own_cgroups() -> dict[str, str]:
    """{controller: path} of this process ("" for cgroup v2), from /proc/self/cgroup."""
    mine = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                mine[controller] = path.rstrip("/")
    return mine


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
