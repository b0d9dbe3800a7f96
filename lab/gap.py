"""The gap: an agent solves each task, then its code is measured on the visible and the held-out tests."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from checks.runner import Agent, LabModel
from harness import score_tests, settings
from harness.errors import UsageError
from harness.tasks import Task
from harness.trail import Trail
from lab.measure import MAX_ITERS, load, solve_on


@dataclass
class Row:
    """One task's line: rates are shares of tests passed, measured by the lab's own runs of the final code."""

    task: Task
    visible: tuple[int, int]  # (passed, total) of the agent's tests
    held_out: tuple[int, int]  # (passed, total) of the task's held-out tests
    rounds: int  # runs the lab served during solve
    bugs: tuple[int, int]  # planted bugs the agent's tests catch, of all
    review: list[str] = field(default_factory=list)
    held_out_failing: list[str] = field(default_factory=list)

    @property
    def visible_rate(self) -> float:
        return _rate(self.visible)

    @property
    def held_out_rate(self) -> float:
        return _rate(self.held_out)

    @property
    def gap(self) -> float:
        return self.visible_rate - self.held_out_rate


def measure(path: Path, chosen: list[Task], *, backend: str, max_iters: int = MAX_ITERS,
            trail_file=None, progress: bool = False, bug_score: bool = True) -> list[Row]:
    """Run the agent's solve on each task with the lab's model, and measure each result with the lab's runs
    (`bug_score=False` leaves out the score of the agent's tests, which takes a run per planted bug)."""
    if max_iters < 1:
        raise UsageError(f"--max-iters {max_iters} is not a whole number of attempts, 1 or more")
    trail = Trail(trail_file or settings.get("SPEC2CODE_TRAIL"))
    saved = os.environ.get("SPEC2CODE_MODEL")
    rows = []
    try:
        os.environ["SPEC2CODE_MODEL"] = backend  # for an agent that calls harness.ask itself
        with Agent(path, model=LabModel(backend)) as agent:
            load(agent, path)
            for task in chosen:
                measured = solve_on(agent, path, task, max_iters=max_iters, trail=trail, model=backend)
                scored = bug_score and measured.tests.strip()
                caught, planted = score_tests(measured.tests, task)["score"] if scored else (0, 0)
                visible, held = measured.visible or {"passed": 0, "total": 0}, measured.held_out
                rows.append(Row(task, (visible["passed"], visible["total"]), (held["passed"], held["total"]),
                                len(measured.runs), (caught, planted), measured.review, held["failed"]))
                if progress:
                    print(f"  {task.name}: {len(measured.runs)} round(s), held-out {held['passed']}/{held['total']}")
    finally:
        if saved is None:
            os.environ.pop("SPEC2CODE_MODEL", None)
        else:
            os.environ["SPEC2CODE_MODEL"] = saved
    return rows


def table(rows: list[Row]) -> str:
    """The rows as aligned text, with an overall line (rates averaged over the tasks, rounds and bugs summed)."""
    header = ["task", "visible", "held-out", "gap", "rounds", "bug score", "review"]
    lines = [[r.task.name, _pct(r.visible_rate), _pct(r.held_out_rate), _pct(r.gap), str(r.rounds),
              _bugs(r.bugs), _flags(len(r.review))] for r in rows]
    if rows:
        mean = lambda values: sum(values) / len(values)  # noqa: E731
        lines.append(["overall", _pct(mean([r.visible_rate for r in rows])),
                      _pct(mean([r.held_out_rate for r in rows])), _pct(mean([r.gap for r in rows])),
                      str(sum(r.rounds for r in rows)),
                      _bugs((sum(r.bugs[0] for r in rows), sum(r.bugs[1] for r in rows))),
                      _flags(sum(len(r.review) for r in rows))])
    widths = [max(len(str(c)) for c in column) for column in zip(header, *lines)]
    text = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))).rstrip()
            for line in [header] + lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(text)


def figure(rows: list[Row], title: str):
    """A matplotlib Figure (no pyplot): per task, bars of the visible and held-out pass rates, the gap marked."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 3.4), dpi=100)
    ax = fig.add_subplot()
    xs = list(range(len(rows)))
    width = 0.38
    visible = [100 * r.visible_rate for r in rows]
    held = [100 * r.held_out_rate for r in rows]
    ax.bar([x - width / 2 for x in xs], visible, width, color="#2da44e", label="visible tests (the agent saw them)")
    ax.bar([x + width / 2 for x in xs], held, width, color="#8250df", label="held-out tests (never shown)")
    for x, row in zip(xs, rows):
        if row.gap > 0.005:
            ax.annotate(f"gap {_pct(row.gap)}", (x, 100 * row.visible_rate + 3), ha="center", color="#cf222e",
                        fontsize="small")
    ax.set_xticks(xs, [r.task.name for r in rows], fontsize="small")
    ax.set_ylabel("tests passed (%)")
    ax.set_ylim(0, 118)
    ax.set_title(f"Visible versus held-out tests, {title}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2, frameon=False, fontsize="small")
    fig.tight_layout()
    return fig


def _rate(pair: tuple[int, int]) -> float:
    return pair[0] / pair[1] if pair[1] else 0.0


def _pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def _bugs(pair: tuple[int, int]) -> str:
    return f"{pair[0]}/{pair[1]}" if pair[1] else "-"


def _flags(count: int) -> str:
    return "-" if not count else f"{count} flag{'s' if count != 1 else ''}"

