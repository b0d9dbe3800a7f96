"""The step 4 and 5 demonstrations: run the lab's finished agent, and show solve() runs as tables and charts."""

from __future__ import annotations

import io

from harness.settings import REFERENCE_AGENT as REFERENCE  # the lab's finished agent, used for demonstrations

from .displays import Chart, Message, Table
from .try_cell import Tried, try_function


def run_reference(function: str, *args, model=None, timeout: float | None = None, **kwargs):
    """Call a function of the lab's finished agent (solutions/agent.py), for a demonstration."""
    return try_function(function, *args, agent_path=REFERENCE, model=model, timeout=timeout, **kwargs)


# --- step 4: a solve run, round by round ------------------------------------------------------------------------


def _solve_result(run):
    """A solve result from a dict or a Tried; None (with the reason) when there is nothing to show."""
    if isinstance(run, Tried):
        return (run.value, "") if run.ok else (None, run.problem)
    if not isinstance(run, dict) or not isinstance(run.get("history"), list):
        return None, "This is not a result of solve(): expected a dict with a 'history' list."
    return run, ""


def _rounds(run) -> list[dict]:
    rows = []
    for i, entry in enumerate(run["history"], 1):
        result = entry.get("result", {}) if isinstance(entry, dict) else {}
        failed = list(result.get("failed") or [])
        rows.append({
            "round": i, "passed": int(result.get("passed") or 0), "failed": len(failed),
            "total": int(result.get("total") or 0), "error": result.get("error") or "", "failing tests": failed,
        })
    return rows


def rounds_table(run):
    """A solve() result as a table: one row per round (attempt), with the tests passed and failed."""
    result, why = _solve_result(run)
    if result is None:
        return Message(why)
    rows = [
        [r["round"], f"{r['passed']} of {r['total']}", ", ".join(r["failing tests"]) or "-", r["error"] or "-"]
        for r in _rounds(result)
    ]
    verdict = "passed" if result.get("passed") else "did not pass"
    caption = f"solve() {verdict} after {len(rows)} round(s)"
    return Table(["round", "tests passed", "failing tests", "error"], rows, caption)


def _figure(width=5.5, height=3.0):
    from matplotlib.figure import Figure  # no pyplot: no global state, no GUI backend

    return Figure(figsize=(width, height), dpi=100)


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None}, bbox_inches="tight")
    return buffer.getvalue()


def rounds_chart(run):
    """A solve() result as a bar chart: tests passed (and failed) in each round."""
    result, why = _solve_result(run)
    if result is None:
        return Message(why)
    rows = _rounds(result)
    if not rows:
        return Message("The run has no rounds to chart: history is empty.")
    fig = _figure()
    ax = fig.add_subplot()
    x = [r["round"] for r in rows]
    passed = [r["passed"] for r in rows]
    failed = [r["total"] - r["passed"] for r in rows]
    ax.bar(x, passed, width=0.5, color="#2da44e", label="passed")
    ax.bar(x, failed, width=0.5, bottom=passed, color="#e5534b", label="failed")
    for r in rows:
        if r["error"]:
            ax.annotate("error", (r["round"], 0.1), ha="center", color="#cf222e")
    ax.set_xticks(x)
    ax.set_xlabel("round (attempt)")
    ax.set_ylabel("tests")
    ax.set_title("Tests passed per round")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2, frameon=False)
    ax.set_ylim(0, max([r["total"] for r in rows] + [1]) * 1.1)
    ax.yaxis.get_major_locator().set_params(integer=True)
    summary = "Tests passed per round: " + ", ".join(f"round {r['round']}: {r['passed']}/{r['total']}" for r in rows)
    return Chart(_png(fig), summary)


# --- step 5: visible tests versus held-out tests ----------------------------------------------------------------


def _contrast(runs: dict) -> list[dict]:
    import harness

    rows = []
    for label, run in runs.items():
        result, why = _solve_result(run)
        if result is None:
            rows.append({"label": label, "problem": why})
            continue
        visible = result["history"][-1]["result"] if result["history"] else {"passed": 0, "total": 0}
        held = harness.run(result["code"], harness.HOLDOUT_TESTS)
        rows.append({
            "label": label, "problem": "",
            "visible": (visible.get("passed", 0), visible.get("total", 0)),
            "held out": (held["passed"], held["total"]), "held out failed": held["failed"],
        })
    return rows


def contrast_table(runs: dict):
    """For each labelled solve() result: visible tests passed, held-out tests passed, and which held-out tests fail."""
    rows = []
    for r in _contrast(runs):
        if r["problem"]:
            rows.append([r["label"], "-", "-", r["problem"]])
        else:
            rows.append([r["label"], "{} of {}".format(*r["visible"]), "{} of {}".format(*r["held out"]),
                         ", ".join(r["held out failed"]) or "-"])
    return Table(["model", "visible tests passed", "held-out tests passed", "held-out tests failing"], rows)


def contrast_chart(runs: dict):
    """Bars of the share of visible and held-out tests passed, for each labelled solve() result."""
    rows = [r for r in _contrast(runs) if not r["problem"]]
    if not rows:
        return Message("Nothing to chart: none of the runs has a result.")
    fig = _figure()
    ax = fig.add_subplot()
    share = lambda pair: 100.0 * pair[0] / pair[1] if pair[1] else 0.0  # noqa: E731
    xs = range(len(rows))
    width = 0.38
    visible = [share(r["visible"]) for r in rows]
    held = [share(r["held out"]) for r in rows]
    ax.bar([x - width / 2 for x in xs], visible, width, color="#2da44e", label="visible tests (the agent saw them)")
    ax.bar([x + width / 2 for x in xs], held, width, color="#8250df", label="held-out tests (never shown)")
    for x, v, h in zip(xs, visible, held):
        ax.annotate(f"{v:.0f}%", (x - width / 2, v + 2), ha="center")
        ax.annotate(f"{h:.0f}%", (x + width / 2, h + 2), ha="center")
    ax.set_xticks(list(xs), [r["label"] for r in rows])
    ax.set_ylabel("tests passed (%)")
    ax.set_ylim(0, 115)
    ax.set_title("Green on the visible tests is not the same as solved")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, frameon=False, fontsize="small")
    summary = "; ".join(
        f"{r['label']}: visible {r['visible'][0]}/{r['visible'][1]}, held-out {r['held out'][0]}/{r['held out'][1]}"
        for r in rows
    )
    return Chart(_png(fig), summary)
