"""PSS of a process tree, by kind of process (server, kernel, sandbox, ...): what bench/session_memory.py sums.

PSS (from /proc/<pid>/smaps_rollup) counts a page shared by n processes as 1/n in each, so the sum over a tree is
what it costs the machine. Linux only.
"""

from __future__ import annotations

import threading
from pathlib import Path


def children(pid: int) -> list[int]:
    """The direct children of `pid` (read from /proc/<pid>/task/*/children); none if it has gone meanwhile."""
    found = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found  # the lab stops kernels while the session runs
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def tree(pid: int) -> list[int]:
    """`pid` and every process below it."""
    todo, seen = [pid], []
    while todo:
        current = todo.pop()
        seen.append(current)
        todo += children(current)
    return seen


def pss_kib(pid: int) -> int:
    """One process's PSS in KiB (0 if it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def kind(pid: int) -> str:
    """What a process of the session is, from its command line."""
    try:
        argv = [a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a]
    except OSError:
        return "gone"
    if not argv:  # exiting: its memory is all but gone
        return "gone"
    script = Path(next((a for a in argv[1:] if a.endswith(".py")), ""))
    if "ipykernel_launcher" in argv:
        return "kernel"
    if "jupyterlab" in argv or Path(argv[0]).name.startswith("jupyter"):
        return "server"
    if script.parent.name == "sandbox":
        return "sandbox"
    if script.parent.name == "runner":
        return "agent runner"
    name = Path(argv[0]).name if argv else "?"
    return "terminal" if name in ("bash", "sh", "zsh") else name


def session_memory(server_pid: int) -> dict[str, tuple[int, int]]:
    """{kind: (processes, PSS in KiB)} over the server's process tree."""
    by_kind: dict[str, tuple[int, int]] = {}
    for pid in tree(server_pid):
        name = kind(pid)
        count, kib = by_kind.get(name, (0, 0))
        by_kind[name] = (count + 1, kib + pss_kib(pid))
    return by_kind


def report(title: str, by_kind: dict[str, tuple[int, int]], target: int | None = None) -> int:
    """Print one table of the session's memory (and its target, if it has one); return the total in MB."""
    total = sum(kib for _, kib in by_kind.values())
    aim = f" (target: at most {target} MB)" if target else ""
    print(f"\n{title}: {total / 1000:.0f} MB PSS{aim}")
    for name, (count, kib) in sorted(by_kind.items(), key=lambda item: -item[1][1]):
        print(f"  {name:<14}{count:>3} process{'es' if count != 1 else '  '}{kib / 1000:>8.0f} MB")
    return round(total / 1000)


class Peak:
    """The largest total PSS of a process tree, sampled every `every` seconds in a thread while in use."""

    def __init__(self, pid: int, every: float = 0.5):
        self.pid, self.every, self.kib = pid, every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._stop.wait(self.every):
            self.kib = max(self.kib, sum(kib for _, kib in session_memory(self.pid).values()))

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
