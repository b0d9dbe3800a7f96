"""Notebook 06's demonstrations: the model's tests scored, the visible versus held-out gap across tasks, a trail."""

from __future__ import annotations

import io

from harness import score_tests, tasks
from harness.settings import REFERENCE_AGENT
from harness.trail import Trail, recording
from harness.trail import timeline as as_text

from .demos import run_reference
from .displays import Chart, Message, Table


def model_tests(task: str, model: str = "offline") -> str:
    """The tests the lab's finished agent writes for a task with the lab's model (its `write_tests`)."""
    tried = run_reference("write_tests", tasks.task(task).spec, model=model)
    return tried.value if tried.ok and isinstance(tried.value, str) else ""


def score_table(tests: str, task: str):
    """A test suite scored on a task: each planted bug, caught (by which tests) or missed; the smells below."""
    found = tasks.task(task)
    if not tests.strip():
        return Message("There are no tests to score: write_tests returned nothing.")
    score = score_tests(tests, found)
    rows = [[bug, ", ".join(score["by"][bug]) or "MISSED"] for bug in found.buggy]
    smells = score["smells"]
    notes = [f"{name}: {', '.join(smells[name])}" for name in ("no assertion", "flaky") if smells[name]]
    notes += [f"passes on a constant: {t} ({why})" for t, why in smells["passes on a constant"].items()]
    caught, planted = score["score"]
    caption = (f"{found.name}: the tests catch {caught} of {planted} planted bugs"
               + (f"; wrong (fail on the reference): {', '.join(score['wrong'])}" if score["wrong"] else "")
               + (f". Smells: {'; '.join(notes)}" if notes else ". No smells."))
    return Table(["planted bug", "caught by"], rows, caption)


def gap_rows(model: str, names=None) -> list:
    """The lab's finished agent on each task (all by default) with a model, measured as `spec2code gap` does."""
    from lab import gap

    chosen = [tasks.task(n) for n in (names or tasks.TASKS)]
    return gap.measure(REFERENCE_AGENT, chosen, backend=model, bug_score=False)


def gap_table(runs: dict):
    """{label: gap rows} as one table: per model and task, visible and held-out pass rates and the gap."""
    rows = []
    for label, measured in runs.items():
        for r in measured:
            rows.append([label, r.task.name, f"{100 * r.visible_rate:.0f}%", f"{100 * r.held_out_rate:.0f}%",
                         f"{100 * r.gap:.0f}%", r.rounds, len(r.review) or "-"])
    return Table(["model", "task", "visible", "held-out", "gap", "rounds", "review flags"], rows)


def gap_chart(rows: list, title: str = "gaming model"):
    """The gap rows of one model as bars: visible and held-out pass rates per task, the gap marked."""
    from lab import gap

    if not rows:
        return Message("Nothing to chart: no task was measured.")
    buffer = io.BytesIO()
    gap.figure(rows, title).savefig(buffer, format="png", metadata={"Software": None})
    summary = "; ".join(f"{r.task.name}: visible {r.visible_rate:.0%}, held-out {r.held_out_rate:.0%}" for r in rows)
    return Chart(buffer.getvalue(), summary)


def trail_of(task: str = "leap_year", model: str = "gaming") -> Trail:
    """One solve by the lab's finished agent, recorded in a trail (kept in memory) as the lab serves it."""
    found = tasks.task(task)
    record = Trail()
    record.start(agent="solutions/agent.py", task=found.name, model=model)
    with recording(record):
        solved = run_reference("solve", found.spec, model=model)
    if solved.ok and isinstance(solved.value, dict) and isinstance(solved.value.get("code"), str):
        import harness
        from lab.measure import review, summary

        code, tests = solved.value["code"], solved.value.get("tests") or ""
        runs = [e for e in record.events if e["event"] == "run"]
        record.note("verdict", task=found.name, visible=summary(harness.run(code, tests)),
                    held_out=summary(harness.run(code, found.holdout_tests)), review=review(code, tests, runs))
    return record


def timeline(record: Trail) -> Message:
    """A trail as the timeline `spec2code trail FILE` prints."""
    return _Text(as_text(record.events))


class _Text(Message):
    """Plain text in a notebook, kept as it is (a timeline)."""

    def _repr_html_(self) -> str:
        import html

        return f'<pre class="spec2code-timeline">{html.escape(self.text)}</pre>'
