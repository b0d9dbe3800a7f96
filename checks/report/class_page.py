"""The class report: one self-contained HTML page made from a class's grades (`spec2code grade --format json`):
pass rates per step, the score distribution, the checks most students fail, the submissions that timed out, crashed
or tried to forge, the pairs of submissions alike enough to look at, the isolation in force, and every submission's
row. Inline CSS and SVG only: no script, no network, nothing to install to open it."""

from __future__ import annotations

from html import escape

from harness.levels import NAMES, TABLE

from ..engine import BLOCKED, FAILED, NOT_STARTED, PASSED
from ..grading import number
from . import charts, class_stats
from .marks import COLOURS, GLYPHS

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 32px 48px; background: #fff; }
h1 { font-size: 26px; margin: 8px 0 4px; } h2 { font-size: 19px; margin: 32px 0 10px; border-bottom: 1px solid #d0d7de; }
.lead { color: #57606a; margin: 0 0 16px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 16px; min-width: 120px; }
.card b { display: block; font-size: 22px; } .card span { color: #57606a; font-size: 13px; }
.banner { border-left: 6px solid #0969da; background: #ddf4ff; padding: 8px 14px; margin: 16px 0; }
.banner.weak { border-color: #9a6700; background: #fff8c5; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #d0d7de; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; white-space: nowrap; }
code, .msg { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.msg { color: #57606a; display: block; margin-top: 3px; white-space: pre-wrap; word-break: break-word; }
.mark { font-size: 16px; } .none { color: #57606a; font-style: italic; }
"""
KINDS = {"tried to forge": "ended early, wrote to the grader's channel or left a process running after its own, the "
                           "ways forged passes are tried",
         "crashed": "its process ended while a function ran", "timed out": "a call took longer than its limit",
         "grader problem": "the lab could not run a check: a problem in the lab, not the submission"}


def to_html(graded: list[dict], *, source: str = "grades.json") -> str:
    """The class report page for scored reports `graded`, read from `source`."""
    head = class_stats.headline(graded)
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<title>Class report: {head['count']} submissions</title><style>{CSS}</style></head><body><main>",
        "<h1>Spec to Code: class report</h1>",
        f"<p class=\"lead\">{head['count']} submissions, graded by <code>spec2code grade</code>, from "
        f"<code>{escape(source)}</code>.</p>",
        _cards(head), _isolation(class_stats.isolation_levels(graded)),
        "<h2>Pass rate per step</h2>",
        charts.stacked_bars(class_stats.step_statuses(graded), [
            (PASSED, COLOURS[PASSED]), (FAILED, COLOURS[FAILED]), (BLOCKED, COLOURS[BLOCKED]),
            (NOT_STARTED, COLOURS[NOT_STARTED])]),
        "<p class=\"lead\">A blocked step could not be checked because a step it needs failed; it scores 0 unless "
        "grading used <code>--credit-blocked</code>.</p>",
        "<h2>Score distribution</h2>",
        charts.histogram(class_stats.score_bins(graded), colour="#0969da",
                         title=f"submissions by score, out of {head['max']}"),
        "<h2>Checks most students fail</h2>", _failing(class_stats.failing_checks(graded)),
        "<h2>Timed out, crashed or tried to forge</h2>", _incidents(class_stats.incidents(graded)),
        "<h2>Similar submissions</h2>", _alike(class_stats.alike(graded)),
        "<h2>Every submission</h2>", _everyone(graded),
        "</main></body></html>\n",
    ]
    return "\n".join(parts)


def _cards(head: dict) -> str:
    cards = [(f"{head['mean']:.2f}", f"mean score of {head['max']}"), (f"{number(head['median'])}", "median"),
             (str(head["full"]), "full marks"), (str(head["zero"]), "scored 0"),
             (str(len(head["not_graded"])), "missing or did not load")]
    return "<div class=\"cards\">" + "".join(f"<div class=\"card\"><b>{value}</b><span>{label}</span></div>"
                                              for value, label in cards) + "</div>"


def _isolation(levels) -> str:
    if not levels:
        return ""
    text = "; ".join(f"<b>{escape(level)}</b> for {count} ({escape(_meaning(level))})"
                     for level, count in levels.most_common())
    weak = "" if set(levels) == {NAMES[0]} else " weak"  # anything below the strongest level is flagged
    return f"<div class=\"banner{weak}\">Isolation in force: {text}.</div>"


def _meaning(level: str) -> str:
    return TABLE[level].instructor if level in TABLE else "level unknown"


def _failing(rows) -> str:
    if not rows:
        return "<p class=\"none\">No check failed.</p>"
    lines = ["<table><tr><th>step</th><th>check</th><th>students</th><th>what they got</th></tr>"]
    for row in rows:
        said = "".join(f"<span class=\"msg\">{count} × {escape(message)}</span>" for message, count in row.messages)
        hint = f"<span class=\"msg\">hint: {escape(row.hint)}</span>" if row.hint else ""
        lines.append(f"<tr><td>{row.step} <code>{escape(row.function)}</code></td><td>{escape(row.description)}"
                     f"{hint}</td><td class=\"num\">{row.students}</td><td>{said}</td></tr>")
    return "".join(lines) + "</table>"


def _incidents(rows) -> str:
    if not rows:
        return "<p class=\"none\">None: no submission timed out, crashed or tried to forge its grade.</p>"
    lines = ["<table><tr><th>submission</th><th>what happened</th><th>where</th><th>message</th></tr>"]
    for row in rows:
        lines.append(f"<tr><td>{escape(row.submission)}</td><td title=\"{escape(KINDS[row.kind])}\">"
                     f"{escape(row.kind)}</td><td>{escape(row.where)}</td><td><span class=\"msg\">"
                     f"{escape(row.message)}</span></td></tr>")
    return "".join(lines) + "</table>"


def _alike(pairs) -> str:
    if not pairs:
        return "<p class=\"none\">None: no two agents are alike beyond the stubs they start from.</p>"
    lines = ["<p class=\"lead\">Agents alike after names, strings and layout are set aside (the stubs left out): "
             "a prompt for a person to look at both, never a change to a score.</p>",
             "<table><tr><th>submission</th><th>similar to</th><th>alike</th></tr>"]
    lines += [f"<tr><td>{escape(a)}</td><td>{escape(b)}</td><td class=\"num\">{figure:.0%}</td></tr>"
              for a, b, figure in pairs]
    return "".join(lines) + "</table>"


def _everyone(graded: list[dict]) -> str:
    steps = "".join(f"<th>{n}</th>" for n in range(1, len(graded[0]["steps"]) + 1)) if graded else ""
    lines = [f"<table><tr><th>submission</th><th>id</th>{steps}<th>score</th><th>note</th></tr>"]
    for one in graded:
        marks = "".join(f"<td class=\"mark\" style=\"color: {COLOURS.get(r['status'], COLOURS[FAILED])}\" "
                        f"title=\"{escape(r['status'])}\">{GLYPHS.get(r['status'], GLYPHS[FAILED])}</td>"
                        for r in one["steps"])
        lines.append(f"<tr><td>{escape(one['submission'])}</td><td>{escape(one.get('student_id', ''))}</td>{marks}"
                     f"<td class=\"num\">{number(one['score'])}/{number(one['max_score'])}</td>"
                     f"<td><span class=\"msg\">{escape(one['note'])}</span></td></tr>")
    return "".join(lines) + "</table>"
