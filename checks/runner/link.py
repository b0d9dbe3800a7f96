"""The lab's ends of a learner's child process: it starts the child behind walls, sends and receives frames with a
deadline, keeps what the child printed (when asked to), and stops it with everything it started."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from harness.settings import PROJECT_ROOT

from . import wire
from .outcomes import Crashed, TimedOut

HERE = Path(__file__).resolve().parent
MAX_PRINTED = 20_000  # characters of what the child printed that are kept


class ChildLink:
    """One running child: `python -I start.py AGENT -- python -I child.py ...`, in a process group of its own."""

    def __init__(self, agent: Path, env: dict, *, show_output: bool):
        self.printed = ""
        self._reader = wire.FrameReader(wire.MAX_MESSAGE)
        self._pending: list = []
        request_read, self._request = os.pipe()
        self._reply, reply_write = os.pipe()
        self._output = output_write = None
        if show_output:
            self._output, output_write = os.pipe()
        child = [sys.executable, "-I", str(HERE / "child.py"), str(PROJECT_ROOT), str(agent),
                 str(request_read), str(reply_write)] + (["--show-output"] if show_output else [])
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", str(HERE / "start.py"), str(agent), "--", *child],
                stdin=subprocess.DEVNULL,
                stdout=output_write if show_output else subprocess.DEVNULL,
                stderr=output_write if show_output else subprocess.DEVNULL,
                pass_fds=(request_read, reply_write),
                start_new_session=True,  # its own process group, so a stop ends whatever it started
                cwd=PROJECT_ROOT,
                env=env,
            )
        finally:
            for fd in (request_read, reply_write, output_write):
                if fd is not None:
                    os.close(fd)

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
                    raise Crashed(f"agent.py sent more than {wire.MAX_MESSAGE >> 20} MB at once") from None
                if any(not isinstance(m, dict) for m in self._pending):
                    raise Crashed("agent.py wrote to the lab's channel")
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

    def stop(self) -> None:
        """Kill the child and everything it started, and close the lab's ends."""
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._proc.wait()
        self.drain_output()
        for fd in (self._request, self._reply, self._output):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._output = None

    def _ended(self) -> tuple[str, int | None]:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "agent.py's process closed the lab's channel", None
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"agent.py's process was killed by {name}", None
        return f"agent.py's process exited with code {code}", code
