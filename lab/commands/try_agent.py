"""`spec2code try`: run an agent on the spec, show each round, then judge the result on the held-out tests."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import harness
from checks import steps
from checks.runner import Agent, LabModel
from harness import settings, tasks
from harness.files import read_source
from harness.tasks import Task
from harness.text import clean, one_line
from harness.trail import Trail
from lab import measure

from .parsing import Parser

LAB_AGENT = settings.LAB_AGENT  # the default, once all its steps are started
REFERENCE_AGENT = settings.REFERENCE_AGENT  # the fallback until then


def main(argv: list[str] | None = None) -> int:
    """Run an agent's `solve` on a task's spec and print each round, a review, and the held-out verdict.

    Exit code: 0 if the visible tests pass and so do the held-out ones, 1 if not, 2 if the run could not be made.
    """
    args = _parser().parse_args(argv)
    saved = os.environ.get("SPEC2CODE_MODEL")
    try:
        if args.model:
            os.environ["SPEC2CODE_MODEL"] = args.model  # ask() reads it on every call
        settings.check()
        path, note = _choose_agent(args.agent)
        trail_file = args.trail or settings.get("SPEC2CODE_TRAIL")
        return _try(path, note, args.max_iters, tasks.task(args.task), trail_file)
    except harness.LabError as problem:
        print(f"spec2code try: {problem}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("spec2code try: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output was piped into something that stopped reading, e.g. `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        if saved is None:
            os.environ.pop("SPEC2CODE_MODEL", None)
        else:
            os.environ["SPEC2CODE_MODEL"] = saved


def _parser() -> Parser:
    parser = Parser(
        prog="spec2code try",
        description="Run an agent on a task's spec (leap year unless --task says otherwise): show each attempt, "
        "then check the final code against the held-out tests the model never saw.",
        epilog="exit code: 0 solved and generalises, 1 not solved or not general, 2 could not run\n\n"
        + settings.help_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--agent",
        metavar="PATH",
        help="the agent.py to run (default: $SPEC2CODE_AGENT, else lab/agent.py once all five steps are "
        "started, else solutions/agent.py)",
    )
    parser.add_argument(
        "--model",
        choices=settings.MODELS,
        help="the model for this run (default: $SPEC2CODE_MODEL, else offline)",
    )
    parser.add_argument(
        "--max-iters", type=_positive, default=measure.MAX_ITERS, metavar="N",
        help=f"attempts (default: {measure.MAX_ITERS})",
    )
    parser.add_argument(
        "--task", default=tasks.DEFAULT.name, metavar="NAME",
        help=f"the task: {', '.join(tasks.TASKS)} (default: {tasks.DEFAULT.name})",
    )
    parser.add_argument(
        "--trail", metavar="FILE", help="append every ask and run to FILE as JSON lines (default: $SPEC2CODE_TRAIL)"
    )
    return parser


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of attempts, 1 or more")
    return int(text)


def _choose_agent(given: str | None) -> tuple[Path, str]:
    """The agent file to run, and a note saying why when it is not the one the learner may expect."""
    if given:
        return settings.agent_path(given), ""
    if settings.is_set("SPEC2CODE_AGENT"):
        return settings.agent_path(), ""
    if not LAB_AGENT.is_file():
        return REFERENCE_AGENT, f"the reference, because {_shown(LAB_AGENT)} does not exist"
    try:
        unstarted = steps.first_not_started(read_source(LAB_AGENT))
    except (OSError, harness.LabError):
        return LAB_AGENT, ""  # let the load report the problem
    if unstarted:
        return REFERENCE_AGENT, (
            f"the reference, because {unstarted.label} is not started yet in {_shown(LAB_AGENT)} "
            f"(--agent {_shown(LAB_AGENT)} runs yours)"
        )
    return LAB_AGENT, ""


def _try(path: Path, note: str, max_iters: int, task: Task, trail_file) -> int:
    model = LabModel()
    trail = Trail(trail_file)
    with Agent(path, model=model, show_output=True) as agent:
        measure.load(agent, path)
        print(f"Agent: {_shown(path)}" + (f" — {note}" if note else ""))
        print(f"Task: {task.title} ({task.name})")
        print(f"Model: {measure.model_line(model.backend)}")
        print(f"Sandbox: {harness.sandbox.isolation_summary()}")
        print()

        measured = measure.solve_on(agent, path, task, max_iters=max_iters, trail=trail, model=model.backend)
        _show_printed(agent)
        for number, run in enumerate(measured.runs, 1):
            print(f"Attempt {number}: {measure.describe(run['result'])}")
        attempts = len(measured.runs)
        if not attempts:
            print("The agent ran no tests through harness.run.")
        elif measured.visible_passed:
            print(f"The visible tests pass after {attempts} attempt{'s' if attempts != 1 else ''}.")
        else:
            print(f"The visible tests still fail after {attempts} attempt{'s' if attempts != 1 else ''}.")
        if bool(measured.out.get("passed")) != measured.visible_passed:
            said = "passed" if measured.out.get("passed") else "did not pass"
            print(f"(solve said its code {said}; the lab ran the code against its tests and found otherwise.)")
        print("\nFinal code:\n" + "\n".join("    " + line for line in clean(measured.code).splitlines()) + "\n")
        for line in measured.review:
            print(f"Review: {clean(line)}")
        theirs = None
        if task is tasks.DEFAULT:  # the agent's holdout_check runs the default task's held-out tests
            theirs = measure.call(agent, path, "holdout_check", measured.code)
            _show_printed(agent)
    if trail.path is not None:
        counts = {kind: sum(1 for e in trail.events if e["event"] == kind) for kind in ("ask", "run")}
        print(f"Trail: {_shown(trail.path)} ({counts['ask']} asks, {counts['run']} runs); "
              f"read it with: spec2code trail {_shown(trail.path)}")
    return _verdict(measured, theirs)


def _verdict(measured, theirs) -> int:
    """The held-out verdict, measured by the lab; and what the agent's own holdout_check said, if it disagrees."""
    held = measured.held_out
    failing = held["failed"]
    if theirs is not None and sorted(map(str, theirs)) != sorted(failing):
        shown = ", ".join(map(str, theirs)) or "nothing"
        print(f"Your holdout_check said: {clean(one_line(shown, 200))} fails; the lab's own run of the held-out tests "
              "says otherwise (below).")
    score = f"Held-out tests: {held['passed']}/{held['total']} passed"
    if held["error"]:
        score += f" — error: {held['error']}"
    passed = measured.visible_passed
    if not failing:
        if passed:
            print(f"{score}. The solution generalises.")
            return 0
        print(f"{score}, but the visible tests did not: the model's own tests may be wrong, or the loop stopped early.")
        return 1
    score += " — failing: " + ", ".join(map(str, failing)) + "."
    if passed:
        print(
            f"{score} The visible tests went green but the held-out tests did not: the model fitted the tests "
            "instead of solving the problem. This is what step 5 guards against."
        )
    else:
        print(f"{score} The visible tests did not pass either: the agent did not solve the problem.")
    return 1


def _show_printed(agent: Agent) -> None:
    if agent.printed.strip():
        print("Your agent printed:\n" + "\n".join("  | " + line for line in clean(agent.printed).splitlines()))
        agent.printed = ""


def _shown(path: Path) -> str:
    return settings.shown(path)


if __name__ == "__main__":
    sys.exit(main())
