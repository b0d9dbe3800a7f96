"""An agent's solve, measured by the lab itself (for try, gap, notebook 06 and try_it), and one-line errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import harness
from checks import steps
from checks.diagnosis import Diagnosis, diagnose, returned, sentence
from checks.runner import Agent, AgentError, LoadFailed
from harness import settings
from harness.errors import AgentFileError
from harness.scan import scan
from harness.tasks import Task
from harness.text import one_line
from harness.trail import Trail, recording

STEPS = {step.function: step.label for step in steps.STEPS}  # "solve": "step 4 (solve)"
MAX_ITERS = 4  # attempts a command (try, gap) gives solve unless told otherwise: the contract's default
STUBBED = ("not started", "calls a stub")  # a diagnosis of a step still to write: the reference shows one way


@dataclass
class Measured:
    """One solve on one task, as the lab saw it: the runs it served, and its own runs of the final code."""

    task: Task
    out: dict  # what solve returned
    code: str
    tests: str
    runs: list[dict] = field(default_factory=list)  # the trail's run events of this solve, in order
    visible: dict | None = None  # harness.run(code, tests), run by the lab
    held_out: dict | None = None  # harness.run(code, task.holdout_tests), run by the lab
    review: list[str] = field(default_factory=list)  # what a reviewer should look at

    @property
    def visible_passed(self) -> bool:
        return _passes(self.visible)


def solve_on(agent: Agent, path: Path, task: Task, *, max_iters: int, trail: Trail, **info) -> Measured:
    """Run the agent's solve on the task's spec with the trail recording, then measure its code with the lab's runs."""
    trail.start(agent=shown(path), task=task.name, **info)
    first = len(trail.events)
    with recording(trail):
        out = call(agent, path, "solve", task.spec, max_iters=max_iters)
    code, tests = check_solve_result(out)
    runs = [e for e in trail.events[first:] if e["event"] == "run"]
    measured = Measured(task, out, code, tests, runs)
    measured.visible = harness.run(code, tests) if tests.strip() else None
    measured.held_out = harness.run(code, task.holdout_tests)
    measured.review = review(code, tests, runs)
    trail.note("verdict", task=task.name, visible=summary(measured.visible), held_out=summary(measured.held_out),
               review=measured.review)
    return measured


def review(code: str, tests: str, runs: list[dict]) -> list[str]:
    """Lines for a reviewer: the scan of the final code against its tests, and attempts that changed the tests."""
    lines = [f"line {f['line']}: {f['says']}" for f in scan(code, tests)]
    for number, run in enumerate(runs, 1):
        if run.get("tests_changed"):
            change = run["tests_changed"]
            lines.append(f"attempt {number} ran other tests than attempt {number - 1} "
                         f"(SHA-256 {change['before'][:12]} -> {change['now'][:12]})")
    return lines


def load(agent: Agent, path: Path) -> None:
    """Load the agent in its child; any problem becomes one line naming the file (and the line)."""
    if not path.exists():
        raise AgentFileError(f"no agent file at {shown(path)}. Check the path, or try --agent solutions/agent.py.")
    if not path.is_file():
        raise AgentFileError(f"{shown(path)} is not a file; give the path of an agent.py.")
    try:
        agent.load()
    except LoadFailed as error:
        raise refusal(diagnose(error, None, path)) from None


def call(agent: Agent, path: Path, name: str, *args, **kwargs):
    """Call one step of the agent; what goes wrong (or a value that breaks the step's contract) becomes one line."""
    if name not in agent.functions:
        raise AgentFileError(f"{shown(path)} has no function {name} ({step_label(name)}).")
    try:
        value = agent.call(name, *args, time_limit=steps.try_time_limit(name), **kwargs)
    except AgentError as error:
        raise refusal(diagnose(error, name, path, source=agent.source), name) from None
    wrong = returned(name, value, path)
    if wrong is not None:
        raise refusal(wrong, name)
    return value


def refusal(found: Diagnosis, called: str | None = None) -> AgentFileError:
    """The one line a command stops with: what happened (in which step, when that is not the one called) and the
    hint; the diagnosis rides along as `.diagnosis`."""
    lead = f"{found.label} is not started yet: " if found.kind == "not started" else ""
    if not lead and found.elsewhere(called):
        lead = f"in {found.elsewhere(called)}: "
    also = "; or try --agent solutions/agent.py to see the reference" if found.kind in STUBBED else ""
    error = AgentFileError(f"{lead}{sentence(found.message)} Hint: {sentence(found.hint + also)}")
    error.diagnosis = found
    return error


def check_solve_result(out: dict) -> tuple[str, str]:
    """(code, tests) from the dict solve returned (call() has seen that it has the five keys)."""
    code, tests = out["code"], out["tests"]
    if not isinstance(code, str):
        raise AgentFileError(f"{step_label('solve')} returned code {one_line(repr(code), 120)}; expected the code "
                             "of the last attempt, a str.")
    return code, tests if isinstance(tests, str) else ""


def describe(result) -> str:
    """One line for one run: tests passed out of total, the failing names, and the error if any."""
    from harness.text import clean

    if not isinstance(result, dict):
        return f"no run result (got {one_line(repr(result), 120)})"
    line = f"{result.get('passed', '?')}/{result.get('total', '?')} tests passed"
    if result.get("failed"):
        line += " — failing: " + ", ".join(map(str, result["failed"]))
    if result.get("error"):
        line += f" — error: {result['error']}"
    return clean(line)


def model_line(backend: str) -> str:
    """Which model answers, as `spec2code try` prints it; replay mode says it replays recorded live replies."""
    if settings.get("SPEC2CODE_REPLAY"):
        return (f"replay of recorded live replies ({settings.get('SPEC2CODE_MODEL_NAME')}) from "
                f"{shown(settings.get('SPEC2CODE_CACHE_DIR'))}, no network")
    names = {"offline": "offline (scripted, no network)", "gaming": "gaming (scripted, games the tests)"}
    return names.get(backend, f"live ({settings.get('SPEC2CODE_MODEL_NAME')})")


def step_label(name: str) -> str:
    return STEPS.get(name, name)


def shown(path) -> str:
    return settings.shown(path)


def _passes(result) -> bool:
    return isinstance(result, dict) and result["error"] is None and not result["failed"] and result["passed"] > 0


def summary(result) -> dict | None:
    """A run result as the trail's verdict keeps it: the counts, the failing names and the error."""
    if not isinstance(result, dict):
        return None
    return {k: result.get(k) for k in ("passed", "total", "failed", "error")}
