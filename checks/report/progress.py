"""Progress while a class is graded: on a terminal one line rewritten in place; elsewhere (CI, Gradescope's log)
a line every few seconds, naming what is being graded, so a long or stuck grading shows where it is."""

from __future__ import annotations

import sys
import threading
import time

from harness.text import clean

EVERY = 5.0  # seconds between progress lines when not on a terminal


class Progress:
    """Told when each submission starts and ends; writes to `stream` (standard error by default).

    Use it as a context manager: off a terminal, a thread writes a line every `every` seconds until the end.
    """

    def __init__(self, total: int, *, stream=None, every: float = EVERY, terminal: bool | None = None):
        self.total, self.every = total, every
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self._lock = threading.Lock()
        self._done = 0
        self._running: dict[str, float] = {}
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self):
        self._start = time.monotonic()
        if not self.terminal:
            self._thread = threading.Thread(target=self._tick, name="spec2code-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.terminal:
            self._write("\r\033[K")

    def started(self, name: str) -> None:
        with self._lock:
            self._running[clean(name)] = time.monotonic()  # a folder's name may hold a terminal escape

    def finished(self, name: str) -> None:
        with self._lock:
            self._running.pop(clean(name), None)
            self._done += 1
            done = self._done
        if self.terminal:
            self._write(f"\rgraded {done}/{self.total}")

    def line(self) -> str:
        """The progress line as it stands: how many are done, for how long, and what is being graded now."""
        now = time.monotonic()
        with self._lock:
            done, running = self._done, sorted(self._running.items(), key=lambda item: item[1])
        text = f"graded {done}/{self.total} in {now - self._start:.0f} s"
        if running:
            text += "; grading " + ", ".join(f"{name} ({now - since:.0f} s)" for name, since in running[:4])
        return text

    def _tick(self) -> None:
        while not self._stop.wait(self.every):
            self._write(self.line() + "\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: progress is not worth failing for
            pass
