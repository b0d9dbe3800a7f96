"""`spec2code trail FILE`: an audit trail (JSON lines) printed as a timeline a reviewer can read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import settings
from harness.errors import UsageError
from harness.text import clean, one_line
from harness.trail import read

WIDTH = 100  # characters of a prompt or reply shown on its line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spec2code trail",
        description="Print an audit trail (written by spec2code try --trail FILE, spec2code gap --trail FILE, or "
        "SPEC2CODE_TRAIL=FILE) as a timeline: each ask and run, with what a reviewer should look at.",
    )
    parser.add_argument("file", metavar="FILE", help="the trail, a file of JSON lines")
    parser.add_argument("--full", action="store_true", help="show whole prompts, replies and solutions")
    args = parser.parse_args(argv)
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"there is no trail at {args.file}: record one with spec2code try --trail {args.file}")
    events = read(path)
    if not events:
        raise UsageError(f"{args.file} holds no trail events (one JSON object per line)")
    print(f"Trail: {settings.shown(path)}")
    print(timeline(events, full=args.full))
    return 0


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


if __name__ == "__main__":
    sys.exit(main())
