"""The grading engine: run each step's checks against an agent.py in a child process and say what happened."""

from __future__ import annotations

import time

from harness import settings
from harness.settings import agent_path as resolve_agent
from harness.settings import shown
from harness.text import clean_data, one_line

from . import isolation
from .define import CheckFailed, checks_of
from .diagnosis import Diagnosis, WrongReturn, blocked, diagnose, not_started, returned
from .runner import Agent, AgentError, LoadFailed, NotStarted, TimedOut
from .runner.loading import LAB_BUG
from .scripted import serve_run
from .scripts import Script
from .stand_ins import Reference
from .steps import BY_NUMBER, STEPS, Step, is_stub, step

PASSED, FAILED, NOT_STARTED, BLOCKED = "passed", "failed", "not started", "blocked"
SUBMISSION_BUDGET = 240.0  # seconds one agent's grading may take in all, asks and runs included
TITLE, FOLLOWS = 160, 100  # characters of what happened, as a cause's line and as its follow-ons quote it



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
    require: the weakest isolation to grade with (a name of harness.levels.NAMES; default:
        SPEC2CODE_REQUIRE_ISOLATION); below it, IsolationTooWeak (a LabError) and nothing is run.

    Returns {"agent": path, "steps": [{"step", "name", "title", "status", "checks": [{"name", "description",
    "status", "message", "hint"}, ...]}, ...], "passed": steps passed, "total": steps reported}, where a status is
    "passed", "failed", "not started" or "blocked", and "isolation" is the weaker of the sandbox's and the agent
    process's levels (a name of harness.levels.NAMES). A failed check whose failure follows from another's also has
    "follows" (that check's name); a blocked step's checks are run anyway and have "would" ("pass" or "fail", and
    then "would_message" and "would_hint"). When a call of the function itself failed (it raised, hung, crashed or
    broke its contract), that failure is listed as a result of its own, with "cause": True (it is not one of the
    step's checks, and no credit depends on it), headed by what happened and with "diagnosis" (kind, step,
    function, file, line, source: checks/diagnosis.py); the checks it made fail follow from it. A step not started,
    or an agent file that does not load, has "diagnosis" too.
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
    with Agent(path, runs=serve_run) as agent, Reference() as reference:
        for current in STEPS:
            if current.number in needed:
                results[current.number] = _grade_step(agent, current, statuses, timeout, script, budget_ends,
                                                      reference)
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
    """The agent as one step's checks see it: every call has that step's time limit, and a value that breaks its
    step's contract fails the call (WrongReturn); `script` is this grading's draw of inputs, and `served` the runs
    answered during the last call. `stand_ins`: the reference's functions in place of unfinished steps' (stand_ins.py)."""

    def __init__(self, agent: Agent, time_limit: float, script: Script, stand_ins: dict):
        self._agent, self._limit, self.script, self._stand_ins = agent, time_limit, script, stand_ins

    def call(self, function: str, *args, runs=None, **kwargs):
        value = self._agent.call(function, *args, time_limit=self._limit, runs=runs, stand_ins=self._stand_ins,
                                 **kwargs)
        wrong = returned(function, value, self._agent.path)
        if wrong is not None:
            raise WrongReturn(wrong)
        return value

    @property
    def served(self) -> list[dict]:
        return self._agent.served


def _grade_step(agent: Agent, current: Step, statuses: dict, timeout, script: Script, budget_ends: float,
                reference: Reference) -> dict:
    checks = checks_of(current)
    limit = current.time_limit if timeout is None else min(current.time_limit, timeout)
    blockers = [n for n in current.needs if statuses.get(n) != PASSED]
    # A blocked step is judged with the reference in place of the steps it waits for, so "would pass" holds then.
    bound = _StepAgent(agent, limit, script, reference.stand_ins([BY_NUMBER[n].function for n in blockers]))
    try:
        agent.load()
    except LoadFailed as exc:
        found = diagnose(exc, current.function, agent.path)
        return _step(current, FAILED, [_diagnosed("loads", "agent.py loads", found, found.message)])
    if current.function not in agent.functions:
        message = f"{agent.path.name} has no function named {current.function}"
        hint = "keep the five functions of the stubs with their names (spec2code reset restores them, saving yours)"
        return _step(current, FAILED, [_result("defines_function", f"defines {current.function}", FAILED, message, hint)])
    if is_stub(agent.source, current.function):
        return _not_started_step(current, checks, not_started(current.function, agent.path, agent.source))

    results = _run_checks(checks, bound, agent, current, budget_ends)
    if isinstance(results, Diagnosis):
        return _not_started_step(current, checks, results)
    if blockers:
        return _step(current, BLOCKED, _provisional(results, current, BY_NUMBER[blockers[0]], agent.path))
    status = PASSED if all(r["status"] == PASSED for r in results) else FAILED
    return _step(current, status, results)


def _run_checks(checks, bound: _StepAgent, agent: Agent, current: Step, budget_ends: float) -> list[dict] | Diagnosis:
    """Every check of a step, in order, root causes first; the diagnosis instead if the function is the stub.

    A call of the learner's function that fails in itself (it raised, hung, crashed, or broke its contract) is a
    cause of its own, named after what happened; each check that failed that way follows from it."""
    results, causes, stopped = [], {}, None
    for index, one in enumerate(checks):
        if not stopped and time.monotonic() > budget_ends:
            stopped = _result(one.name, one.description, FAILED,
                              f"not checked: grading this agent took more than {SUBMISSION_BUDGET:g} s in all")
        if stopped:
            results.append(dict(stopped, name=one.name, description=one.description))
            continue
        try:
            one.run(bound)
        except CheckFailed as exc:
            results.append(_result(one.name, one.description, FAILED, exc.message, exc.hint))
        except (AgentError, WrongReturn) as exc:
            found = diagnose(exc, current.function, agent.path, source=agent.source)
            if isinstance(exc, NotStarted) and index == 0:
                return found
            if found.fault not in causes:
                causes[found.fault] = _cause(found, {c["name"] for c in causes.values()})
                results.append(causes[found.fault])
            results.append(_result(one.name, one.description, FAILED, follows=causes[found.fault]["name"]))
            if isinstance(exc, TimedOut):  # every later call would wait as long: the step's other checks are not run
                stopped = results[-1]
        except Exception as exc:  # a check itself broke: say so in words, never a traceback
            message = f"this check could not run ({type(exc).__name__}: {exc})"
            results.append(_result(one.name, one.description, FAILED, message, LAB_BUG))
        else:
            results.append(_result(one.name, one.description, PASSED))
    return _root_causes_first(checks, results)


def _cause(found: Diagnosis, taken: set) -> dict:
    """A failure of the function itself as a result of its own, headed by what happened (not by a check's title)."""
    name = found.kind.replace(" ", "_")
    name = next(f"{name}_{n}" for n in range(2, 99) if f"{name}_{n}" not in taken) if name in taken else name
    title = one_line(found.headline, TITLE)
    detail = found.message[len(found.headline) + 2:] if title == found.headline else found.message
    source = f"line {found.line}: {found.source}" if found.source else ""
    return _diagnosed(name, title, found, "\n".join(filter(None, [detail, source])), cause=True)


def _root_causes_first(checks, results: list[dict]) -> list[dict]:
    """A failure that follows from another says so (and gives no hint of its own, which would point away from the
    cause); the failures that are causes come first. A check follows another it names (`follows`) only when both
    failed on their own verdicts: a check that fails on its own merits keeps its message beside a failed call."""
    declared = {c.name: c.follows for c in checks}
    own = {r["name"] for r in results if r["status"] == FAILED and "follows" not in r and "diagnosis" not in r}
    for result in results:
        roots = [name for name in declared.get(result["name"], ()) if name in own and name != result["name"]]
        if result["name"] in own and roots:
            result["follows"] = roots[0]
    titles = {r["name"]: r["description"] for r in results}
    for result in results:
        if "follows" in result:
            result["message"] = f"follows from: {one_line(titles[result['follows']], FOLLOWS)} (fix that first)"
            result["hint"] = ""
    causes = [r for r in results if r["status"] == FAILED and "follows" not in r]
    return causes + [r for r in results if r not in causes]


def _provisional(results: list[dict], current: Step, blocker: Step, path) -> list[dict]:
    """A blocked step's checks, run anyway, so work is never without feedback: each stays blocked (no credit), and
    says in `would` ("pass" or "fail", with `would_message` and `would_hint`) what it finds now."""
    waiting = blocked(current, blocker, path)
    return [
        _result(r["name"], r["description"], BLOCKED, waiting.message, would="pass" if r["status"] == PASSED else "fail",
                **({} if r["status"] == PASSED else {"would_message": r["message"], "would_hint": r["hint"]}),
                **({"cause": True} if r.get("cause") else {}))
        for r in results
    ]


def _not_started_step(current: Step, checks, found: Diagnosis) -> dict:
    return _step(current, NOT_STARTED, [_diagnosed(c.name, c.description, found, f"not started: {found.message}",
                                                   NOT_STARTED) for c in checks])


def _diagnosed(name: str, description: str, found: Diagnosis, message: str, status: str = FAILED, **extra) -> dict:
    return _result(name, description, status, message, found.hint, diagnosis=found.data(), **extra)


def _result(name: str, description: str, status: str, message: str = "", hint: str = "", **extra) -> dict:
    return {"name": name, "description": description, "status": status, "message": message, "hint": hint, **extra}


def _step(current: Step, status: str, checks: list[dict]) -> dict:
    return {"step": current.number, "name": current.function, "title": current.title, "status": status, "checks": checks}
