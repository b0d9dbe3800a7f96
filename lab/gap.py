"""The gap: an agent solves each task, then its code is measured on the visible and the held-out tests."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from checks.runner import Agent, LabModel
from harness import score_tests, settings, tasks
from harness.errors import UsageError
from harness.tasks import Task
from harness.trail import Trail
from lab.measure import MAX_ITERS, load, solve_on


MOST_BARS = 12  # tasks drawn one by one in the chart; more are drawn by difficulty


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


def select(bank: str = "lab", names: str = "all") -> list[Task]:
    """The tasks to measure: all of a bank ("lab" or "humaneval"), or names, with HumanEval's as slices
    ("HumanEval/0-19,HumanEval/32")."""
    if names.strip() == "all":
        return list(tasks.bank(bank).values())
    chosen = []
    for part in (n.strip() for n in names.split(",") if n.strip()):
        span = _SLICE.fullmatch(part)
        if span and int(span[1]) <= int(span[2]):
            chosen += [tasks.task(f"HumanEval/{n}") for n in range(int(span[1]), int(span[2]) + 1)]
        elif span:
            raise UsageError(f"--tasks {part}: a slice runs from the lower number to the higher, as HumanEval/0-19")
        else:
            chosen.append(tasks.task(part))
    return chosen


_SLICE = re.compile(r"humaneval/(\d+)-(\d+)", re.I)


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


def by_difficulty(rows: list[Row]) -> dict[int, tuple[int, float, float]]:
    """difficulty -> (tasks, mean visible rate, mean held-out rate), for the difficulties the rows have."""
    levels: dict[int, list[Row]] = {}
    for row in rows:
        levels.setdefault(row.task.difficulty, []).append(row)
    return {level: (len(rs), sum(r.visible_rate for r in rs) / len(rs), sum(r.held_out_rate for r in rs) / len(rs))
            for level, rs in sorted(levels.items())}


def closing_note(rows: list[Row]) -> str:
    """What the rows say about the gap and difficulty (HumanEval's: the canonical solution's length, 1 to 5)."""
    levels = by_difficulty(rows)
    each = ", ".join(f"{level}: {_pct(v - h)} ({n} task{'s' if n != 1 else ''})" for level, (n, v, h) in levels.items())
    mean = sum(r.gap for r in rows) / len(rows)
    lines = [f"Gap by difficulty (1 = shortest solution): {each}.",
             f"Overall: visible {_pct(sum(r.visible_rate for r in rows) / len(rows))}, held-out "
             f"{_pct(sum(r.held_out_rate for r in rows) / len(rows))}, gap {_pct(mean)} over {len(rows)} tasks."]
    r = _correlation([row.task.difficulty for row in rows], [row.gap for row in rows])
    if mean < 0.005:
        lines.append("No gap: the final code passes the held-out tests as well as the visible ones.")
        return "\n".join(lines)
    if r > 0.1:
        lines.append(f"The gap grows with difficulty (correlation {r:.2f}), as SpecBench reports.")
    else:
        lines.append(f"The gap does not grow with difficulty here (correlation {r:.2f}), unlike SpecBench's finding.")
    if any(row.bugs[1] for row in rows):  # another proxy: the planted bugs the agent's tests let through
        missed = _correlation([row.bugs[1] - row.bugs[0] for row in rows], [row.gap for row in rows])
        lines.append(f"Against the planted bugs the agent's tests miss, the correlation is {missed:.2f}.")
    return "\n".join(lines)


def _correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's r (0 when either side does not vary)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else 0.0


def figure(rows: list[Row], title: str):
    """A matplotlib Figure (no pyplot): per task, bars of the visible and held-out pass rates, the gap marked; over
    MOST_BARS tasks, the same bars per difficulty (the rates averaged over its tasks)."""
    if len(rows) > MOST_BARS:
        levels = by_difficulty(rows)
        return _bars([f"{level}\n({n} tasks)" for level, (n, _, _) in levels.items()],
                     [v for _, v, _ in levels.values()], [h for _, _, h in levels.values()],
                     f"Visible versus held-out tests by difficulty, {title}",
                     xlabel="difficulty (1 = shortest canonical solution)")
    return _bars([r.task.name for r in rows], [r.visible_rate for r in rows], [r.held_out_rate for r in rows],
                 f"Visible versus held-out tests, {title}")


def _bars(labels: list[str], visible: list[float], held: list[float], title: str, xlabel: str = ""):
    """Bars of the visible and held-out pass rates (0 to 1) side by side for each label, each gap marked."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 3.4), dpi=100)
    ax = fig.add_subplot()
    xs, width = list(range(len(labels))), 0.38
    ax.bar([x - width / 2 for x in xs], [100 * v for v in visible], width, color="#2da44e",
           label="visible tests (the agent saw them)")
    ax.bar([x + width / 2 for x in xs], [100 * h for h in held], width, color="#8250df",
           label="held-out tests (never shown)")
    for x, v, h in zip(xs, visible, held):
        if v - h > 0.005:
            ax.annotate(f"gap {_pct(v - h)}", (x, 100 * v + 3), ha="center", color="#cf222e", fontsize="small")
    ax.set_xticks(xs, labels, fontsize="small")
    if xlabel:
        ax.set_xlabel(xlabel, fontsize="small")
    ax.set_ylabel("tests passed (%)")
    ax.set_ylim(0, 118)
    ax.set_title(title)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3 if xlabel else -0.14), ncols=2, frameon=False,
              fontsize="small")
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

