"""The lab's ends of a learner's child process: it starts the child behind walls, sends and receives frames with a
deadline, keeps what the child printed (when asked to), and stops it with everything it started."""

from __future__ import annotations

import functools
import json
import os
import select
import signal
import subprocess
import time
from pathlib import Path

from harness.sandbox import tidy
from harness.settings import PROJECT_ROOT

from . import live, reach, wire
from .outcomes import Crashed, TimedOut

HERE = Path(__file__).resolve().parent
OUTLIVED = "left a process running after its own had ended (a daemon): the grader killed it"
MAX_PRINTED = 20_000  # characters of what the child printed that are kept
STATUS_WAIT = 30.0  # seconds the walls may take to go up on a busy machine


def _take_slot():
    """A user of the sandbox's reserved range for this child, when the lab runs as root; None otherwise."""
    from harness.sandbox import slots

    if os.geteuid() != 0:
        return None
    folder = slots.lock_folder()
    return slots.acquire(folder) if folder else None


@functools.lru_cache(maxsize=4)
def ladder(asked: str):
    """The walls this machine gives an agent's child, up to `asked`: the sandbox's ladder, probed once a process (as
    root with a Python other users cannot read, on a copy they can: the child is started with the ladder's Python)."""
    from harness.sandbox import walls

    return walls.on_a_readable_copy(walls.choose(asked))


class WallsFailed(Exception):
    """The agent's child could not be walled in, so it was not run; the message says why."""


class ChildLink:
    """One running child: `python -I start.py ... -- python -I child.py ...`, in a process group of its own, behind
    the strongest walls the machine gives (`isolation` says which), with a user of its own when the lab is root."""

    def __init__(self, agent: Path, env: dict, *, show_output: bool, isolation: str = "auto"):
        self.printed = ""
        self._reader = wire.FrameReader(wire.MAX_MESSAGE)
        self._pending: list = []
        self._proc = self._slot = None
        self._request = self._reply = self._output = None
        self._mountpoint = ""
        self._walled = None  # a pidfd on the walled child, the first of a PID namespace of its own (see _watch_walled)
        chosen = ladder(isolation)
        self.python = chosen.python  # what the child is started with: this Python, or a copy others can read
        self._slot = _take_slot() if chosen.own_users else None
        if self._slot is None and chosen.own_users and os.geteuid() == 0:  # never as root: fail closed
            raise WallsFailed("no user of the sandbox's range was free for the agent's process, so it was not run")
        uid = self._slot.solution if self._slot else os.getuid()
        self._mountpoint = tidy.owned_folder("spec2code-agent-")  # root's, 700, until reach hands it over; a dead grader's is reclaimed by the next
        try:
            root, child_py, agent_read = reach.within_reach(chosen.level, Path(agent), self._mountpoint, uid)
        except OSError as exc:
            self.stop()
            raise WallsFailed(f"the agent's process could not have its own copy of the lab ({exc}), so it was not "
                              "run") from None
        status_read, status_write = os.pipe()
        request_read, self._request = os.pipe()
        self._reply, reply_write = os.pipe()
        output_write = None
        if show_output:
            self._output, output_write = os.pipe()
        child = [chosen.python, "-I", str(child_py), str(root), str(agent_read),
                 str(request_read), str(reply_write)] + (["--show-output"] if show_output else [])
        start = [chosen.python, "-I", str(HERE / "start.py"), str(os.getpid()), str(status_write), chosen.level,
                 chosen.via or "-", str(uid), self._mountpoint, str(agent_read), "--", *child]
        try:
            self._proc = subprocess.Popen(
                start,
                stdin=subprocess.DEVNULL,
                stdout=output_write if show_output else subprocess.DEVNULL,
                stderr=output_write if show_output else subprocess.DEVNULL,
                pass_fds=(status_write, request_read, reply_write),
                start_new_session=True,  # its own process group, so a stop ends whatever it started
                cwd=PROJECT_ROOT,
                env={**env, **chosen.python_env},
            )
        finally:
            for fd in (status_write, request_read, reply_write, output_write):
                if fd is not None:
                    os.close(fd)
        self.isolation = self._read_status(status_read)
        self._walled = self._watch_walled()

    def _read_status(self, fd: int) -> dict:
        """What start.py reached, before the agent's code runs; WallsFailed (the child stopped) if it could not."""
        data = b""
        with os.fdopen(fd, "rb") as status:
            while not data.endswith(b"\n"):
                ready, _, _ = select.select([status], [], [], STATUS_WAIT)
                chunk = os.read(fd, 4096) if ready else b""
                if not chunk:
                    break
                data += chunk
        try:
            reached = json.loads(data)
        except ValueError:
            reached = {"failed": "it stopped before it said" if data == b"" else "it said something else"}
        if not isinstance(reached, dict) or "failed" in reached or "level" not in reached:
            self.stop()
            why = reached.get("failed") if isinstance(reached, dict) else None
            raise WallsFailed(f"the agent's process could not be walled in ({why}), so it was not run")
        return reached

    def _watch_walled(self):
        """A pidfd on the walled child, where it is the first process of a PID namespace of its own and has a user
        of its own (the namespaces level, as root): once it has ended, so has every process in that namespace, the
        only processes its user ran, and its IPC namespace and tmpfs, all it could write, are gone. None elsewhere,
        or where it cannot be told apart (stop() then kills its user's processes one by one)."""
        from harness import levels

        if self._slot is None or self.isolation.get("level") != levels.NAMESPACES:
            return None
        found = _children(self._proc.pid)  # start.py stays behind as the walled child's keeper: its one child
        if len(found) != 1:
            return None
        try:
            walled = os.pidfd_open(found[0])
        except (AttributeError, OSError):
            return None
        if _children(self._proc.pid) != found:  # it ended meanwhile, and its number may be another's now
            os.close(walled)
            return None
        return walled

    def _end_walled(self, patience: float = 5.0) -> bool:
        """Kill the walled child (see _watch_walled) and wait until it has ended: True once it has, and with it its
        whole PID namespace. False where there is no such child, or it was still there after `patience` seconds."""
        walled, self._walled = self._walled, None
        if walled is None:
            return False
        try:
            try:
                signal.pidfd_send_signal(walled, signal.SIGKILL)  # it may have left the group killed before
            except ProcessLookupError:  # ended already
                pass
            return bool(select.select([walled], [], [], patience)[0])
        except OSError:
            return False
        finally:
            os.close(walled)

    def send(self, message: dict) -> None:
        view = memoryview(wire.frame(message))
        while view:
            view = view[os.write(self._request, view):]

    def receive(self, deadline: float) -> dict:
        """The next message from the child; TimedOut at the deadline, Crashed if it ends or breaks the protocol."""
        while not self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimedOut()
            watched = [self._reply] + ([self._output] if self._output is not None else [])
            ready, _, _ = select.select(watched, [], [], remaining)
            if self._output is not None and self._output in ready:
                self.drain_output()
            if self._reply in ready:
                chunk = os.read(self._reply, 1 << 16)
                if not chunk:
                    raise Crashed(*self._ended())
                try:
                    self._pending += self._reader.feed(chunk)
                except ValueError:
                    raise Crashed(f"it sent more than {wire.MAX_MESSAGE >> 20} MB at once") from None
                if any(not isinstance(m, dict) for m in self._pending):
                    raise Crashed("it wrote to the lab's channel")
        return self._pending.pop(0)

    def drain_output(self) -> None:
        """Read what the child printed so far, keeping the first MAX_PRINTED characters."""
        while self._output is not None:
            ready, _, _ = select.select([self._output], [], [], 0)
            if not ready:
                return
            chunk = os.read(self._output, 1 << 16)
            if not chunk:
                return
            room = MAX_PRINTED - len(self.printed)
            if room > 0:
                self.printed += chunk.decode("utf-8", "replace")[:room]

    def kill(self) -> None:
        """Kill the child and every process of its user now, from any thread (live.stop_all); stop() still gives
        back the rest. Never raises."""
        if self._proc is not None and self._proc.returncode is None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self._slot is not None:
            from harness.sandbox import slots

            try:
                slots.scrub(self._slot, shared=False)
            except OSError:  # stop() scrubs again, and says what outlived it
                pass

    def stop(self) -> None:
        """Kill the child and everything it started (with a user of its own: every process of that user, daemons
        that left its process group included), and close the lab's ends. Never raises."""
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._proc.wait()
        if self._slot is not None:
            from harness.sandbox import slots

            if self._proc is not None and _outlived(self._slot.solution, self._proc.pid):
                live.note(OUTLIVED)
            scrubbed = False
            try:
                # Once the walled child's PID namespace has ended, its user runs nothing and left nothing on the
                # machine (the walls of the namespaces level): killing each of its users as that user forked the
                # grader twice and read /proc twice, some 15-20 ms an agent.
                if not self._end_walled():
                    slots.scrub(self._slot)
                scrubbed = True
            except OSError as exc:  # its slot stays unclean, so its next holder scrubs it first
                live.note(f"left a process the grader could not end ({exc})")
            finally:
                self._remove_folder()  # before the slot is free: its next holder has the same user
                slots.release(self._slot, scrubbed=scrubbed)
                self._slot = None
        self._remove_folder()
        self.drain_output()
        for fd in (self._request, self._reply, self._output):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._request = self._reply = self._output = None

    def _remove_folder(self) -> None:
        if self._mountpoint:
            tidy.give_back(self._mountpoint)
            self._mountpoint = ""

    def _ended(self) -> tuple[str, int | None]:
        if self._proc is None:
            return "its process was stopped", None
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "its process closed the lab's channel", None
        if code - 128 in signal.valid_signals():  # the walls' keeper says "killed by signal N" as 128 + N (walls.py)
            code = 128 - code
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"its process was killed by {name}", None
        return f"its process exited with code {code}", code


def _children(pid: int) -> list[int]:
    """The children of the one-threaded process `pid` (none if it has ended, or the kernel does not list them)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(child) for child in f.read().split()]
    except (OSError, ValueError):
        return []


def _outlived(uid: int, group: int) -> bool:
    """Whether a process of `uid` (the child's own user) runs outside the child's process group `group` once the
    group is killed: one that left it to outlive its grading (a daemon, as a results.json is rewritten later)."""
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{name}").st_uid != uid:
                continue
            with open(f"/proc/{name}/stat", "rb") as f:
                state, _, pgrp = f.read().rsplit(b")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if state != b"Z" and int(pgrp) != group:
            return True
    return False
