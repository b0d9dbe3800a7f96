"""The audit trail: every ask and every run the lab serves an agent, as JSON lines, read back as a timeline."""

# The lab records it where it serves the agent (the lab's model and the agent runner's run hook), so any agent
# leaves one without its own cooperation. Each ask holds the prompt, the reply, the backend, whether it came from
# the cache, the seconds and the tokens when known; each run holds the result, the seconds, the isolation level,
# the SHA-256 of the tests (flagged when an attempt changes them), the static scan's warnings, and what of the run's
# output the next prompt carried (and what it cut). Record with SPEC2CODE_TRAIL=FILE or `recording(Trail(FILE))`.
# `read(FILE)` gives the events back, and `timeline(events)` is them as `spec2code trail FILE` prints them.

from __future__ import annotations

import hashlib
import json
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from . import settings
from .scan import scan
from .text import clean, clean_data, cut, one_line

CUT_KEPT = 2000  # characters of cut feedback kept in the trail
CARRIED_MIN = 40  # characters of a run's output a prompt must hold to count as carrying it
WIDTH = 100  # characters of a prompt or reply a timeline shows on its line


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


def timeline(events: list[dict], *, full: bool = False) -> str:
    """The events as readable lines: one block per solve, one line per ask and run, flags marked with '!'."""
    counts = {kind: sum(1 for e in events if e.get("event") == kind) for kind in ("start", "ask", "run")}
    lines = [f"{counts['start']} solve(s), {counts['ask']} ask(s), {counts['run']} run(s)"]
    for event in events:
        kind = event.get("event")
        at = f"+{float(event.get('at') or 0):.2f}s".rjust(8)
        if kind == "start":
            about = " · ".join(f"{k} {v}" for k, v in event.items() if k not in ("event", "n", "at"))
            lines += ["", f"solve {event.get('n')}" + (f" · {about}" if about else "")]
        elif kind == "ask":
            lines += [f"  {at}  ask {event.get('n')}  {_ask_summary(event)}"]
            lines += _text("asks", event.get("prompt"), full) + _text("answers", event.get("reply"), full)
            feedback = event.get("feedback")
            if feedback and feedback.get("cut_chars"):
                lines.append(
                    f"           ! feedback: sent {feedback['sent_chars']} of the {feedback['output_chars']} "
                    f"characters of the last run's output (its {feedback.get('kept', 'end')}); "
                    f"cut {feedback['cut_chars']}"
                )
        elif kind == "run":
            lines += [f"  {at}  run {event.get('n')}  {_run_summary(event)}"]
            if full:
                lines += _text("solution", event.get("solution"), True)
            for flag in event.get("flags") or []:
                lines.append(f"           ! line {flag.get('line')}: {flag.get('says')}")
            if event.get("tests_changed"):
                change = event["tests_changed"]
                lines.append(f"           ! the tests changed since the run before "
                             f"({str(change.get('before'))[:12]} -> {str(change.get('now'))[:12]})")
        elif kind == "verdict":
            visible, held_out = _counts(event.get("visible")), _counts(event.get("held_out"))
            lines.append(f"  verdict  visible {visible} · held-out {held_out}")
            lines += [f"           ! {line}" for line in event.get("review") or []]
        else:
            lines.append(f"  {at}  {clean(one_line(str(kind), 40))}")
    return "\n".join(clean(line) for line in lines)


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


def _ask_summary(event: dict) -> str:
    parts = [str(event.get("backend") or "model")]
    if event.get("model") and event.get("backend") in ("live", "replay"):
        parts[0] += f" {event['model']}"
    if event.get("sample"):
        parts.append(f"sample {event['sample']}")
    if "cached" in event:
        parts.append("from the cache" if event["cached"] else "asked")
    if isinstance(event.get("seconds"), (int, float)):
        parts.append(f"{event['seconds']:.2f} s")
    tokens = event.get("tokens")
    if isinstance(tokens, dict):
        parts.append(f"{tokens.get('prompt')} + {tokens.get('completion')} tokens")
    parts.append(f"{len(str(event.get('prompt') or ''))} -> {len(str(event.get('reply') or ''))} characters")
    if event.get("reasoning"):
        parts.append(f"reasoning kept apart ({len(str(event['reasoning']))} characters)")
    return " · ".join(parts)


def _run_summary(event: dict) -> str:
    result = event.get("result") if isinstance(event.get("result"), dict) else {}
    line = f"{result.get('passed', '?')}/{result.get('total', '?')} tests passed"
    if result.get("failed"):
        line += " — failing: " + ", ".join(map(str, result["failed"]))
    if result.get("error"):
        line += f" — error: {result['error']}"
    extra = [f"{event['seconds']:.2f} s" if isinstance(event.get("seconds"), (int, float)) else "",
             str(event.get("isolation") or ""), f"tests {str(event.get('tests_sha256') or '')[:12]}"]
    return " · ".join([line] + [e for e in extra if e])


def _counts(result) -> str:
    if not isinstance(result, dict):
        return "not run"
    text = f"{result.get('passed')}/{result.get('total')}"
    if result.get("failed"):
        text += " — failing: " + ", ".join(map(str, result["failed"]))
    return text


def _text(label: str, text, full: bool) -> list[str]:
    text = str(text or "")
    if full:
        return [f"           {label}:"] + [f"             | {line}" for line in text.splitlines()]
    line = one_line(text, 10 * WIDTH)
    if len(line) > WIDTH:  # its start (what is asked) and its end (the feedback, the last words)
        line = line[: WIDTH // 2] + " … " + line[-(WIDTH // 2) :]
    return [f"           {label}: {line}"]
