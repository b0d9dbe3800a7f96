"""The audit trail: every ask and every run the lab serves an agent, as JSON lines a reviewer can read later."""

# The lab records it where it serves the agent (the lab's model and the agent runner's run hook), so any agent
# leaves one without its own cooperation. Each ask holds the prompt, the reply, the backend, whether it came from
# the cache, the seconds and the tokens when known; each run holds the result, the seconds, the isolation level,
# the SHA-256 of the tests (flagged when an attempt changes them), the static scan's warnings, and what of the run's
# output the next prompt carried (and what it cut). Record with SPEC2CODE_TRAIL=FILE or `recording(Trail(FILE))`.

from __future__ import annotations

import hashlib
import json
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from . import settings
from .scan import scan
from .text import clean_data, cut

CUT_KEPT = 2000  # characters of cut feedback kept in the trail
CARRIED_MIN = 40  # characters of a run's output a prompt must hold to count as carrying it


def fingerprint(text: str) -> str:
    """The SHA-256 of a text (of the tests, say), in hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Trail:
    """One trail: its events in memory (`events`) and, with a path, appended to that file as JSON lines."""

    def __init__(self, path=None):
        self.path = Path(path) if path else None
        self.events: list[dict] = []
        self._lock = threading.Lock()
        self._started = time.monotonic()
        self._tests: str | None = None  # the fingerprint of the last run's tests in this solve
        self._output = ""  # the last run's output, to see what the next prompt carries of it
        self._counts: dict[str, int] = {}

    def start(self, **info) -> dict:
        """A new solve begins: what it is (agent, task, model, ...). Tests are compared within one solve."""
        self._tests, self._output = None, ""
        return self._record({"event": "start", **info})

    def ask(self, prompt: str, reply, *, via: str = "given") -> dict:
        """One ask: `reply` is a harness.model.Reply (or the reply's text)."""
        text = getattr(reply, "text", reply)
        event = {"event": "ask", "via": via, "prompt": prompt, "reply": text}
        for name in ("backend", "model", "sample", "cached", "seconds", "tokens", "reasoning"):
            if hasattr(reply, name):
                event[name] = getattr(reply, name)
        feedback = _carried(self._output, prompt)
        if feedback:
            event["feedback"] = feedback
        return self._record(event)

    def run(self, solution: str, tests: str, result: dict, seconds: float) -> dict:
        """One run of tests against a solution, as the sandbox returned it."""
        sha = fingerprint(tests)
        event = {
            "event": "run", "solution": solution, "tests": tests, "tests_sha256": sha,
            "result": result, "seconds": seconds, "isolation": result.get("isolation"),
            "flags": scan(solution, tests),
        }
        if self._tests is not None and sha != self._tests:
            event["tests_changed"] = {"before": self._tests, "now": sha}
        self._tests, self._output = sha, str(result.get("output") or "")
        return self._record(event)

    def note(self, event: str, **info) -> dict:
        """Anything else worth a line: the held-out verdict, say."""
        return self._record({"event": event, **info})

    def _record(self, event: dict) -> dict:
        with self._lock:
            self._counts[event["event"]] = counted = self._counts.get(event["event"], 0) + 1
            event = {"n": counted, "at": round(time.monotonic() - self._started, 3), **event}
            event = clean_data(event)
            self.events.append(event)
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(event, ensure_ascii=False, default=str) + "\n")
        return event


def read(path) -> list[dict]:
    """The events of a trail file; lines that are not JSON objects are skipped."""
    events = []
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("event"), str):
            events.append(event)
    return events


_recording: list[Trail] = []
_from_settings: dict[str, Trail] = {}


def active() -> Trail | None:
    """The trail being recorded: the innermost `recording(...)`, else SPEC2CODE_TRAIL's file, else None."""
    if _recording:
        return _recording[-1]
    path = settings.get("SPEC2CODE_TRAIL")
    if path is None:
        return None
    key = str(Path(path).expanduser().resolve())
    if key not in _from_settings:
        _from_settings[key] = Trail(key)
    return _from_settings[key]


@contextmanager
def recording(trail: Trail):
    """Record the asks and runs the lab serves in `trail` while the block runs."""
    _recording.append(trail)
    try:
        yield trail
    finally:
        _recording.remove(trail)


def _carried(output: str, prompt: str) -> dict | None:
    """What a prompt carries of a run's output: how much was sent, and what was cut (None if it carries none)."""
    if not output or not isinstance(prompt, str):
        return None
    if output in prompt:
        return {"output_chars": len(output), "sent_chars": len(output), "cut_chars": 0}
    tail = _longest(lambda k: output[len(output) - k :] in prompt, len(output))
    head = _longest(lambda k: output[:k] in prompt, len(output))
    sent = max(tail, head)
    if sent < min(CARRIED_MIN, len(output)):
        return None
    dropped = output[: len(output) - sent] if tail >= head else output[sent:]
    return {"output_chars": len(output), "sent_chars": sent, "cut_chars": len(dropped),
            "kept": "end" if tail >= head else "start", "cut": cut(dropped, CUT_KEPT)}


def _longest(holds, most: int) -> int:
    """The largest k <= most for which holds(k), when holds is true up to some k and false after it."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low
