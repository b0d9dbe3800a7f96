"""`spec2code try`: run an agent on the spec, show each round, then judge the result on the held-out tests."""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path

import harness
from checks import steps
from checks.runner import Agent, Crashed, LabModel, LoadFailed, NotStarted, Raised, TimedOut
from harness import settings
from harness.errors import AgentFileError
from harness.files import read_source
from harness.text import clean, one_line

LAB_AGENT = settings.LAB_AGENT  # the default, once all its steps are started
REFERENCE_AGENT = settings.REFERENCE_AGENT  # the fallback until then
MAX_ITERS = 4  # attempts at a solution
STEPS = {step.function: step.label for step in steps.STEPS}  # "solve": "step 4 (solve)"
MODELS = {
    "offline": "offline (scripted, no network)",
    "gaming": "gaming (scripted, games the tests)",
    "live": "live",
}


def main(argv: list[str] | None = None) -> int:
    """Run `solve(harness.SPEC)` of an agent and print each round and the held-out verdict.

    Exit code: 0 if the visible tests pass and so do the held-out ones, 1 if not, 2 if the run could not be made.
    """
    args = _parser().parse_args(argv)
    saved = os.environ.get("SPEC2CODE_MODEL")
    try:
        if args.model:
            os.environ["SPEC2CODE_MODEL"] = args.model  # ask() reads it on every call
        settings.check()
        path, note = _choose_agent(args.agent)
        return _try(path, note, args.max_iters)
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spec2code try",
        description="Run an agent on the leap-year spec: show each attempt, then check the final code "
        "against the held-out tests the model never saw.",
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
        "--max-iters", type=_positive, default=MAX_ITERS, metavar="N", help=f"attempts (default: {MAX_ITERS})"
    )
    return parser


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of attempts, 1 or more")
    return int(text)


def _choose_agent(given: str | None) -> tuple[Path, str]:
    """The agent file to run, and a note saying why when it is not the one the learner may expect."""
    if given:
        return Path(given), ""
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


def _try(path: Path, note: str, max_iters: int) -> int:
    model = LabModel()
    with Agent(path, model=model, show_output=True) as agent:
        _load(agent, path)
        print(f"Agent: {_shown(path)}" + (f" — {note}" if note else ""))
        name = f" ({settings.get('SPEC2CODE_MODEL_NAME')})" if model.backend == "live" else ""
        print(f"Model: {MODELS[model.backend]}{name}")
        print(f"Sandbox: {harness.sandbox.isolation_summary()}")
        print()

        out = _call(agent, path, "solve", harness.SPEC, max_iters=max_iters)
        _show_printed(agent)
        code, history = _check_solve_result(out)
        for number, attempt in enumerate(history, 1):
            print(f"Attempt {number}: {_describe(attempt.get('result') if isinstance(attempt, dict) else None)}")
        passed = bool(out.get("passed"))
        attempts = len(history)
        if passed:
            print(f"The visible tests pass after {attempts} attempt{'s' if attempts != 1 else ''}.")
        else:
            print(f"The visible tests still fail after {attempts} attempt{'s' if attempts != 1 else ''}.")
        print("\nFinal code:\n" + "\n".join("    " + line for line in code.splitlines()) + "\n")

        failing = _call(agent, path, "holdout_check", code)
        _show_printed(agent)
    if not isinstance(failing, (list, tuple)):
        raise AgentFileError(
            f"{_step('holdout_check')} returned {one_line(repr(failing), 120)}; expected a list of test names."
        )
    names = _test_names(harness.HOLDOUT_TESTS)
    score = f"Held-out tests: {len(names) - len(set(failing))}/{len(names)} passed"
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


def _load(agent: Agent, path: Path) -> None:
    """Load the agent in its child; any problem becomes one line naming the file (and the line)."""
    if not path.exists():
        raise AgentFileError(f"no agent file at {_shown(path)}. Check the path, or try --agent solutions/agent.py.")
    if not path.is_file():
        raise AgentFileError(f"{_shown(path)} is not a file; give the path of an agent.py.")
    try:
        agent.load()
    except LoadFailed as error:
        info = error.info
        if info.get("type") in ("SyntaxError", "IndentationError", "TabError"):
            raise AgentFileError(
                f"syntax error in {_shown(path)}:{info['line']}: {info['message']}. Fix it and run again."
            ) from None
        if info.get("type") and info["type"] != "SystemExit":
            at = f" at {_shown(path)}:{info['line']}" if info.get("line") else ""
            raise AgentFileError(
                f"{_shown(path)} fails when imported{at}: {info['type']}: {one_line(info['message'], 120)}"
            ) from None
        raise AgentFileError(f"{_shown(path)} could not be loaded: {error}") from None


def _call(agent: Agent, path: Path, name: str, *args, **kwargs):
    """Call one step of the agent; turn what goes wrong into a one-line message naming the step."""
    if name not in agent.functions:
        raise AgentFileError(f"{_shown(path)} has no function {name} ({_step(name)}).")
    try:
        return agent.call(name, *args, time_limit=steps.try_time_limit(name), **kwargs)
    except NotStarted:
        raise AgentFileError(
            f"{_step(name)} is not started yet in {_shown(path)}; try --agent solutions/agent.py to see the reference"
        ) from None
    except Raised as error:
        info = error.info
        if info["type"] == "NotImplementedError" and info["stub"] and info["in"] in STEPS:
            raise AgentFileError(
                f"{_step(info['in'])} is not started yet in {_shown(path)}; "
                "try --agent solutions/agent.py to see the reference"
            ) from None
        at = f" at {_shown(path)}:{error.line}" if error.line else ""
        message = f": {one_line(info['message'], 120)}" if info["message"] else ""
        raise AgentFileError(f"{_step(name)} raised {info['type']}{message}{at}") from None
    except TimedOut:
        limit = steps.try_time_limit(name)
        raise AgentFileError(
            f"{_step(name)} did not finish within {limit:g} s and was stopped: look for a loop that never ends"
        ) from None
    except Crashed as error:
        raise AgentFileError(f"{_step(name)} stopped its process: {error}") from None


def _show_printed(agent: Agent) -> None:
    if agent.printed.strip():
        print("Your agent printed:\n" + "\n".join("  | " + line for line in clean(agent.printed).splitlines()))
        agent.printed = ""


def _check_solve_result(out) -> tuple[str, list]:
    expected = "expected a dict with code, tests, passed, iters and history"
    if not isinstance(out, dict):
        raise AgentFileError(f"{_step('solve')} returned {one_line(repr(out), 120)}; {expected}.")
    code, history = out.get("code"), out.get("history")
    if not isinstance(code, str) or not isinstance(history, list):
        raise AgentFileError(f"{_step('solve')} returned a dict with keys {sorted(map(str, out))}; {expected}.")
    return code, history


def _describe(result) -> str:
    """One line for one attempt: tests passed out of total, the failing names, and the error if any."""
    if not isinstance(result, dict):
        return f"no run result in the history entry (got {one_line(repr(result), 120)})"
    line = f"{result.get('passed', '?')}/{result.get('total', '?')} tests passed"
    if result.get("failed"):
        line += " — failing: " + ", ".join(map(str, result["failed"]))
    if result.get("error"):
        line += f" — error: {result['error']}"
    return clean(line)


def _test_names(source: str) -> list[str]:
    functions = [node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)]
    return [function.name for function in functions if function.name.startswith("test")]


def _step(name: str) -> str:
    return STEPS.get(name, name)


def _shown(path: Path) -> str:
    return settings.shown(path)


if __name__ == "__main__":
    sys.exit(main())
