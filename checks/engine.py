"""The grading engine: run each step's checks against an agent.py in a child process and say what happened."""

from __future__ import annotations

import time

from harness import settings
from harness.settings import agent_path as resolve_agent
from harness.settings import shown
from harness.text import clean_data

from . import isolation
from .define import CheckFailed
from .runner import Agent, AgentError, Crashed, LoadFailed, NotStarted, Raised, TimedOut
from .scripted import serve_run
from .scripts import Script
from .steps import BY_NUMBER, STEPS, Step, is_stub, step

PASSED, FAILED, NOT_STARTED, BLOCKED = "passed", "failed", "not started", "blocked"
SUBMISSION_BUDGET = 240.0  # seconds one agent's grading may take in all, asks and runs included

_LAB_BUG = "this is a problem in the lab, not in your code: please report it to your instructor"


def grade_agent(agent_path=None, steps=None, *, timeout: float | None = None, seed: int | None = None,
                task=None, require: str | None = None) -> dict:
    """Grade the steps of one agent.py and return the verdict as plain data.

    agent_path: the agent.py (default: $SPEC2CODE_AGENT, else lab/agent.py).
    steps: step numbers or function names to report (default: all five); the steps they need are graded too.
    timeout: if given, the most seconds one call of a learner's function may take (default: 3 s for steps 1-3,
        10 s for steps 4-5). A call that takes longer is stopped and fails its check.
    seed: what the checks' inputs are drawn from (default: SPEC2CODE_SEED, else a fresh secret one; see
        checks/scripts.py). An honest agent gets the same verdict from every seed.
    task: the task (a name from harness.tasks) for the checks that run the lab's own model: step 2's offline tests
        and step 4's task it was never shown (default: leap year, and a task drawn from the bank for step 4).
    require: the weakest isolation to grade with ("namespaces", "user" or "process"; default:
        SPEC2CODE_REQUIRE_ISOLATION); below it, IsolationTooWeak (a LabError) and nothing is run.

    Returns {"agent": path, "steps": [{"step", "name", "title", "status", "checks": [{"name", "description",
    "status", "message", "hint"}, ...]}, ...], "passed": steps passed, "total": steps reported}, where a status is
    "passed", "failed", "not started" or "blocked", and "isolation" is the weaker of the sandbox's and the agent
    process's levels ("namespaces", "user" or "process"). A failed check whose failure follows from another's also has
    "follows" (that check's name); a blocked step's checks are run anyway and have "would" ("pass" or "fail", and
    then "would_message" and "would_hint").
    """
    path = resolve_agent(agent_path)
    walls = isolation.require(require or settings.get("SPEC2CODE_REQUIRE_ISOLATION"))
    wanted = sorted({step(key).number for key in steps}) if steps else [s.number for s in STEPS]
    needed = set(wanted)
    for number in sorted(wanted, reverse=True):
        needed.update(BY_NUMBER[number].needs)
    results, statuses = {}, {}
    script = Script(settings.get("SPEC2CODE_SEED") if seed is None else seed, task)
    budget_ends = time.monotonic() + SUBMISSION_BUDGET
    with Agent(path, runs=serve_run) as agent:
        for current in STEPS:
            if current.number in needed:
                results[current.number] = _grade_step(agent, current, statuses, timeout, script, budget_ends)
                statuses[current.number] = results[current.number]["status"]
    reported = [results[number] for number in wanted]
    # Messages quote what the agent raised and returned: made safe here, once, for every view of the report.
    return clean_data({
        "agent": shown(path),
        "steps": reported,
        "passed": sum(r["status"] == PASSED for r in reported),
        "total": len(reported),
        "isolation": walls["level"],
    })


class _StepAgent:
    """The agent as one step's checks see it: every call has that step's time limit; `script` is this grading's
    draw of inputs, and `served` the runs answered during the last call."""

    def __init__(self, agent: Agent, time_limit: float, script: Script):
        self._agent, self._limit, self.script = agent, time_limit, script

    def call(self, function: str, *args, runs=None, **kwargs):
        return self._agent.call(function, *args, time_limit=self._limit, runs=runs, **kwargs)

    @property
    def served(self) -> list[dict]:
        return self._agent.served


def _grade_step(agent: Agent, current: Step, statuses: dict, timeout, script: Script, budget_ends: float) -> dict:
    checks = current.checks()
    limit = current.time_limit if timeout is None else min(current.time_limit, timeout)
    bound = _StepAgent(agent, limit, script)
    try:
        agent.load()
    except LoadFailed as exc:
        return _step(current, FAILED, [_result("loads", "agent.py loads", FAILED, str(exc), exc.hint)])
    if current.function not in agent.functions:
        message = f"agent.py has no function named {current.function}"
        hint = "keep the five functions of the stubs with their names (spec2code reset restores them, saving yours)"
        return _step(current, FAILED, [_result("defines_function", f"defines {current.function}", FAILED, message, hint)])
    if is_stub(agent.source, current.function):
        return _not_started_step(current, checks)

    results = _run_checks(checks, bound, current, budget_ends)
    if results is None:
        return _not_started_step(current, checks)
    blockers = [n for n in current.needs if statuses.get(n) != PASSED]
    if blockers:
        return _step(current, BLOCKED, _provisional(results, BY_NUMBER[blockers[0]]))
    status = PASSED if all(r["status"] == PASSED for r in results) else FAILED
    return _step(current, status, results)


def _run_checks(checks, bound: "_StepAgent", current: Step, budget_ends: float) -> list[dict] | None:
    """Every check of a step, in order, root causes first; None if the function turned out to be the stub."""
    results, stopped = [], None
    for index, one in enumerate(checks):
        if not stopped and time.monotonic() > budget_ends:
            stopped = f"not checked: grading this agent took more than {SUBMISSION_BUDGET:g} s in all"
        if stopped:
            results.append(_result(one.name, one.description, FAILED, stopped, ""))
            continue
        try:
            one.run(bound)
        except NotStarted:
            if index == 0:
                return None
            message = f"part of {current.function} still raises NotImplementedError"
            results.append(_result(one.name, one.description, FAILED, message, "remove the stub's raise line"))
        except CheckFailed as exc:
            results.append(_result(one.name, one.description, FAILED, exc.message, exc.hint))
        except TimedOut as exc:
            results.append(_result(one.name, one.description, FAILED, str(exc), current.hang_hint))
            stopped = f"not checked: {current.function} took too long in an earlier check"
        except AgentError as exc:
            results.append(_result(one.name, one.description, FAILED, *_explain(exc, current)))
        except Exception as exc:  # a check itself broke: say so in words, never a traceback
            message = f"this check could not run ({type(exc).__name__}: {exc})"
            results.append(_result(one.name, one.description, FAILED, message, _LAB_BUG))
        else:
            results.append(_result(one.name, one.description, PASSED))
    return _root_causes_first(checks, results)


def _root_causes_first(checks, results: list[dict]) -> list[dict]:
    """A failure that follows from another failed check says so (and gives no hint of its own, which would point
    away from the cause); the failures that are causes come first."""
    failed = {r["name"]: r for r in results if r["status"] == FAILED}
    for one, result in zip(checks, results):
        roots = [failed[name] for name in one.follows if name in failed and name != one.name]
        if result["status"] == FAILED and roots:
            result["message"] = f"follows from: {roots[0]['description']} (fix that first)"
            result["hint"] = ""
            result["follows"] = roots[0]["name"]
    causes = [r for r in results if r["status"] == FAILED and "follows" not in r]
    return causes + [r for r in results if r not in causes]


def _provisional(results: list[dict], blocker: Step) -> list[dict]:
    """A blocked step's checks, run anyway, so work is never without feedback: each stays blocked (no credit), and
    says in `would` ("pass" or "fail", with `would_message` and `would_hint`) what it finds now."""
    waiting = f"blocked until step {blocker.number} ({blocker.function}) passes"
    return [
        _result(r["name"], r["description"], BLOCKED, waiting, would="pass" if r["status"] == PASSED else "fail",
                **({} if r["status"] == PASSED else {"would_message": r["message"], "would_hint": r["hint"]}))
        for r in results
    ]


def _not_started_step(current: Step, checks) -> dict:
    return _step(current, NOT_STARTED, [_result(c.name, c.description, NOT_STARTED, _not_started(current)) for c in checks])


def _explain(exc: AgentError, current: Step) -> tuple[str, str]:
    """The message and hint for a function that raised, crashed or could not be loaded."""
    if isinstance(exc, LoadFailed):
        return str(exc), exc.hint
    if isinstance(exc, Crashed):
        return (
            f"{exc} while running {current.function}",
            "does your code call exit(), os._exit() or stop its own process? return a value instead",
        )
    assert isinstance(exc, Raised)
    info = exc.info
    if info["type"] == "NotImplementedError" and info["in"] and info["in"] != current.function:
        return str(exc), f"{current.function} calls {info['in']}, which is not written yet: finish that step first"
    if info["type"] == "SystemExit":
        return str(exc), "return a value instead of calling exit()"
    if exc.is_a_limit:
        return str(exc), (f"{current.function} asks or runs far more than it needs: look at the loop on that line; "
                          "`spec2code try` shows each round as it happens")
    if info["type"] == "TypeError" and "argument" in info["message"]:
        return str(exc), "keep the parameters of the stub (same names, same defaults), and call functions that way"
    return str(exc), "read the error and the line it names; `python lab/try_it.py` runs your functions so you can see it"


def _not_started(current: Step) -> str:
    return f"not started: {current.function} still raises NotImplementedError"


def _result(name: str, description: str, status: str, message: str = "", hint: str = "", **extra) -> dict:
    return {"name": name, "description": description, "status": status, "message": message, "hint": hint, **extra}


def _step(current: Step, status: str, checks: list[dict]) -> dict:
    return {"step": current.number, "name": current.function, "title": current.title, "status": status, "checks": checks}
