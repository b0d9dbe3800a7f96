"""Run your agent step by step on small examples and see what each function returns: `python lab/try_it.py`.

It stops at the first step you have not started. Use `--agent PATH` (or SPEC2CODE_AGENT) for another file.
Your code runs the way the checks run it (in a child process, with the lab's model answering its prompts):
this shows, it does not grade. Grading is `spec2code check`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

try:
    import pytest  # noqa: F401 - the sandbox runs every test with it
except ImportError:
    sys.exit(
        f"This Python ({sys.executable}) does not have the lab's packages (pytest is missing), so your code cannot "
        "be run here. Use the lab's own Python: .venv/bin/python lab/try_it.py (or run "
        "`source .venv/bin/activate` once, then python lab/try_it.py)."
    )

import harness  # noqa: E402 - after the project folder is on the path
from checks.diagnosis import Diagnosis, diagnose, returned, sentence  # noqa: E402
from checks.runner import Agent, AgentError, LabModel, LoadFailed  # noqa: E402
from checks.steps import try_time_limit  # noqa: E402
from harness import settings  # noqa: E402
from harness.errors import LabError  # noqa: E402
from harness.text import clean, cut  # noqa: E402
from lab.commands.parsing import Parser  # noqa: E402
from lab.measure import model_line  # noqa: E402

SHOWN = 600  # characters of a long value shown


class Stop(Exception):
    """Stop at this step; the message is what to print, the code the exit status, and `.diagnosis` why."""

    def __init__(self, message: str, code: int, diagnosis: Diagnosis | None = None):
        super().__init__(message)
        self.code, self.diagnosis = code, diagnosis

    @classmethod
    def at(cls, found: Diagnosis, called: str | None = None) -> "Stop":
        """Stop on a diagnosis: a step not started yet is where the learner is (exit status 0), the rest a problem."""
        where = f"In {found.elsewhere(called)}: " if found.elsewhere(called) else ""
        said = f"{where}{sentence(found.message)}\nHint: {sentence(found.hint)}"
        if found.kind in ("not started", "calls a stub"):
            return cls(f"{found.function} is not started yet: that's the next step to write. Stopping here.\n{said}",
                       0, found)
        return cls(f"{said}\nFix it, then run this again (and `spec2code check` to grade it).", 1, found)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python lab/try_it.py", description=__doc__.splitlines()[0])
    parser.add_argument("--agent", metavar="PATH", help="your agent.py (default: $SPEC2CODE_AGENT or lab/agent.py)")
    args = parser.parse_args(argv)
    path = settings.agent_path(args.agent)
    model = LabModel()
    with Agent(path, model=model, show_output=True) as agent:
        try:
            agent.load()
        except LoadFailed as exc:
            print(Stop.at(diagnose(exc, None, path)))
            return 1
        print(f"Agent: {settings.shown(path)}")
        print(f"Model: {model_line(model.backend)}")
        tried = Tried(agent, model)
        state = {}
        for number, title, show in STEPS:
            print(f"\n=== Step {number}: {title} ===")
            try:
                show(tried, state)
            except Stop as stop:
                print(stop)
                return stop.code
    print("\nEvery step ran. Grade them with: spec2code check")
    return 0


class Tried:
    """Calls into the agent's child that show the prompts sent, what was printed, and stop on a problem."""

    def __init__(self, agent: Agent, model: LabModel):
        self.agent, self.model = agent, model

    def __call__(self, function: str, *args, **kwargs):
        value = self._call(function, *args, **kwargs)
        wrong = returned(function, value, self.agent.path)
        if wrong is not None:
            show(f"{function} returned", value)
            raise Stop.at(wrong, function)
        return value

    def _call(self, function: str, *args, **kwargs):
        seen = len(self.model.transcript)
        try:
            return self.agent.call(function, *args, time_limit=try_time_limit(function), **kwargs)
        except AgentError as exc:
            raise Stop.at(diagnose(exc, function, self.agent.path, source=self.agent.source), function) from None
        except LabError as exc:  # the lab's model could not answer: no key, a replay miss
            raise Stop(f"The model could not answer: {exc}", 2) from None
        finally:
            for prompt, reply in self.model.transcript[seen:]:
                show("  prompt sent", prompt, limit=SHOWN // 2)
                show("  model replied", reply, limit=SHOWN // 2)
            if self.agent.printed.strip():
                show("  your code printed", self.agent.printed)
                self.agent.printed = ""


def show(label: str, value, limit: int = SHOWN) -> None:
    text = cut(clean(value if isinstance(value, str) else repr(value)), limit)
    if "\n" in text:
        print(f"{label}:\n" + "\n".join("    " + line for line in text.splitlines()))
    else:
        print(f"{label}: {text}")


def step1(call, state):
    for reply in ("Here you go:\n```python\nx = 1\n```\nEnjoy!", "```\ny = 2\n```", "  z = 3\n"):
        show(f"extract_code({reply!r})", call("extract_code", reply))


def step2(call, state):
    state["tests"] = call("write_tests", harness.SPEC)
    show("write_tests returned", state["tests"])


def step3(call, state):
    show("write_solution returned", call("write_solution", harness.SPEC))
    feedback = "These tests failed: test_centuries_are_not_leap_years"
    print(f"\nAnd with feedback={feedback!r}:")
    show("write_solution returned", call("write_solution", harness.SPEC, feedback=feedback))


def step4(call, state):
    out = call("solve", harness.SPEC)
    for number, entry in enumerate(out.get("history") or [], start=1):
        result = entry.get("result", {}) if isinstance(entry, dict) else {}
        print(f"attempt {number}: passed {result.get('passed')}, failed {result.get('failed')}, error {result.get('error')}")
    show("solve returned passed", out.get("passed"))
    show("solve returned iters", out.get("iters"))
    show("solve returned code", out.get("code"))
    state["code"] = out.get("code")


def step5(call, state):
    if isinstance(state.get("code"), str):
        show("holdout_check(the code solve found)", call("holdout_check", state["code"]))
    buggy = harness.tasks.LEAP_YEAR.buggy["forgets_centuries"]
    show("holdout_check(a solution that forgets the century rule)", call("holdout_check", buggy))


STEPS = [
    (1, "extract_code finds the code in a reply", step1),
    (2, "write_tests asks the model for tests", step2),
    (3, "write_solution asks the model for a solution", step3),
    (4, "solve loops until the tests pass", step4),
    (5, "holdout_check runs the held-out tests", step5),
]


if __name__ == "__main__":
    try:
        sys.exit(main())
    except LabError as problem:  # a misspelt setting, a live model with no key: one line, never a traceback
        sys.exit(f"python lab/try_it.py: {problem}")
    except BrokenPipeError:  # the output went into something that stopped reading, e.g. `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
