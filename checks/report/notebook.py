"""One step's verdict as a notebook shows it: HTML with a glyph per check, and the same as plain text."""

from __future__ import annotations

import html
import re

from harness.text import cut

from ..steps import BY_NUMBER
from .marks import COLOURS, GLYPHS, MARKS

SHOWN = 1500  # characters of a check's message shown before it is cut short
BEYOND = "06_beyond.ipynb"  # the notebook after the last step: nothing to write, what the steps add up to


def code_spans(text: str) -> str:
    """Escape text for HTML, turning `backticked` words into <code>, and a notebook's name into a link to it."""
    pieces = html.escape(text).split("`")
    return "".join(_code(p) if i % 2 else p for i, p in enumerate(pieces))


def _code(piece: str) -> str:
    if re.fullmatch(r"\d\d_\w+\.ipynb", piece):
        return f'<a href="{piece}"><code>{piece}</code></a>'
    return f"<code>{piece}</code>"


def title(result: dict) -> str:
    name, words = result.get("name", ""), result.get("title", "")
    return f"Step {result['step']} · {name}" + (f" ({words})" if words else "")


def notebook_of(step: int, name: str) -> str:
    """The notebook of a step, as named in notebooks/ (the check cell links to the next one)."""
    return f"{step:02d}_{name}.ipynb"


def headline(result: dict, where: str) -> str:
    """The one sentence that says where the step stands and what to do next."""
    status = result["status"]
    checks = [c for c in result.get("checks", []) if not c.get("cause")]  # a failed call heads them, uncounted
    done = sum(c["status"] == "passed" for c in checks)
    if status == "passed":
        after = BY_NUMBER.get(result.get("step", 0) + 1)
        return f"passed: all {len(checks)} checks pass. " + (
            f"On to the next step: `{notebook_of(after.number, after.function)}`." if after
            else f"That was the last step: well done! Then have a look at `{BEYOND}`.")
    if status == "failed":
        return f"failed: {done} of {len(checks)} checks pass. Fix {where}, save it, and run this cell again."
    if status == "not started":
        name = result.get("name") or "the function"
        return f"not started: `{name}` in {where} still raises NotImplementedError. Write it, save, run this again."
    if status == "blocked":
        why = next((c.get("message") for c in checks if c.get("message")), "")
        then = " Until then, here is what its checks find now (it counts once that step passes)." if any(
            "would" in c for c in checks) else ""
        return f"blocked: {why or 'an earlier step must pass first.'}.{then}".replace("..", ".")
    return f"could not be checked: {result.get('error', 'unknown problem')}"


def _listed(result: dict) -> list[dict]:
    """The checks worth listing: all of them, unless the step is not started, or blocked without a verdict of its
    own yet (then they wait)."""
    checks = result.get("checks", [])
    if result["status"] == "not started" or (result["status"] == "blocked" and not any("would" in c for c in checks)):
        return []
    return checks


def _verdict(check: dict) -> tuple[str, str, str]:
    """(" (would pass)" or "", message, hint) of a check as shown: a blocked check shows what it would say."""
    if "would" in check:
        return f" (would {check['would']})", check.get("would_message", ""), check.get("would_hint", "")
    return "", check.get("message", ""), check.get("hint", "")


def _unseen(hint: str, hints: set) -> str:
    """A hint the first time a step shows it; "" after that (one mistake, one hint)."""
    if not hint or hint in hints:
        return ""
    hints.add(hint)
    return hint


def step_text(result: dict, where: str, note: str = "") -> str:
    checks = result.get("checks", [])
    lines, hints = [f"{title(result)}: {headline(result, where)}"], set()
    for check in _listed(result):
        would, message, hint = _verdict(check)
        lines.append(f"  {MARKS.get(check['status'], ':|')} {check['description']}{would}")
        if check["status"] == "failed" or check.get("would") == "fail":
            lines += [f"      {line}" for line in cut(message, SHOWN).splitlines()]
            if _unseen(hint, hints):
                lines.append(f"      hint: {hint}")
    if not _listed(result) and result["status"] in ("not started", "blocked") and checks:
        lines.append("  What the check looks for:")
        lines += [f"    - {c['description']}" for c in checks]
    if note:
        lines.append(f"  Note: {note}")
    if result.get("isolation"):
        lines.append(f"  (graded with isolation: {result['isolation']})")
    return "\n".join(lines)


def step_html(result: dict, where: str, note: str = "") -> str:
    status, checks, esc = result["status"], result.get("checks", []), html.escape
    colour = COLOURS.get(status, COLOURS["failed"])
    parts = [
        f'<div class="spec2code-check" data-step="{result["step"]}" data-status="{esc(status)}" '
        f'style="border-left: 6px solid {colour}; padding: 6px 12px; margin: 4px 0; font-family: sans-serif">',
        f'<div style="font-weight: bold; color: {colour}">{GLYPHS.get(status, GLYPHS["failed"])} '
        f"{esc(title(result))}: {code_spans(headline(result, where))}</div>",
    ]
    listed, hints = _listed(result), set()
    if listed:
        parts.append('<ul style="list-style: none; padding-left: 0.5em; margin: 6px 0">')
        for check in listed:
            would, message, hint = _verdict(check)
            mark = f'<span style="color: {COLOURS.get(check["status"], COLOURS["not started"])}">' \
                   f'{GLYPHS.get(check["status"], GLYPHS["not started"])}</span>'
            parts.append(f'<li style="margin: 3px 0">{mark} {esc(check["description"])}<i>{esc(would)}</i>')
            if check["status"] == "failed" or check.get("would") == "fail":
                if message:
                    parts.append(
                        '<pre style="margin: 4px 0 2px 1.5em; padding: 4px 8px; background: #f6f8fa; '
                        f'white-space: pre-wrap">{esc(cut(message, SHOWN))}</pre>'
                    )
                if _unseen(hint, hints):
                    parts.append(f'<div style="margin-left: 1.5em"><b>Hint:</b> <i>{esc(hint)}</i></div>')
            parts.append("</li>")
        parts.append("</ul>")
    elif checks:
        items = "".join(f"<li>{esc(c['description'])}</li>" for c in checks)
        parts.append(f"<details><summary>What the check looks for</summary><ul>{items}</ul></details>")
    if note:
        parts.append(f'<div style="color: {COLOURS["blocked"]}; margin-top: 6px"><b>Note:</b> {code_spans(note)}</div>')
    if result.get("isolation"):
        parts.append(f'<div style="color: {COLOURS["not started"]}; font-size: smaller; margin-top: 4px">graded with '
                     f'isolation: {esc(result["isolation"])}</div>')
    parts.append("</div>")
    return "".join(parts)
