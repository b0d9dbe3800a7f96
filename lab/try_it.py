"""Run your agent step by step on small examples and see what each function returns: `python lab/try_it.py`.

It stops at the first step you have not started. Use `--agent PATH` (or SPEC2CODE_AGENT) for another file.
This runs your code in this process, with the lab's model (`harness.ask`): it shows, it does not grade.
Grading is `spec2code check`.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import harness  # noqa: E402 - after the project folder is on the path

SHOWN = 600  # characters of a long value shown


class NotStarted(Exception):
    """The step's function is still the stub."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python lab/try_it.py", description=__doc__.splitlines()[0])
    parser.add_argument("--agent", metavar="PATH", help="your agent.py (default: $SPEC2CODE_AGENT or lab/agent.py)")
    args = parser.parse_args(argv)
    path = Path(args.agent or os.environ.get("SPEC2CODE_AGENT", "").strip() or ROOT / "lab" / "agent.py").resolve()
    try:
        agent = load(path)
    except SyntaxError as exc:
        print(f"{path.name} has a syntax error on line {exc.lineno}: {exc.msg}. Fix it and run this again.")
        return 1
    except Exception as exc:
        print(f"{path.name} could not be loaded: {_where(exc, path)}")
        return 1
    state = {}
    for number, title, show in STEPS:
        print(f"\n=== Step {number}: {title} ===")
        try:
            show(agent, state)
        except NotStarted as exc:
            print(f"{exc} is not started yet: that's the next step to write. Stopping here.")
            return 0
        except NotImplementedError as exc:
            if _raised_by_stub(exc, path):
                print(f"{_raised_by_stub(exc, path)} is not started yet: that's the next step to write. Stopping here.")
                return 0
            print(f"Your code raised {_where(exc, path)}")
            return 1
        except Exception as exc:
            print(f"Your code raised {_where(exc, path)}")
            print("Fix it, then run this again (and `spec2code check` to grade it).")
            return 1
    print("\nEvery step ran. Grade them with: spec2code check")
    return 0


def load(path: Path):
    spec = importlib.util.spec_from_file_location("agent", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["agent"] = module
    spec.loader.exec_module(module)
    return module


def show(label: str, value, limit: int = SHOWN) -> None:
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[:limit] + f"\n... ({len(text) - limit} more characters)"
    if "\n" in text:
        print(f"{label}:\n" + "\n".join("    " + line for line in text.splitlines()))
    else:
        print(f"{label}: {text}")


def watched_ask(prompt):
    """harness.ask, showing the prompt your code sent and the start of the reply."""
    show("  prompt sent", prompt, limit=SHOWN // 2)
    reply = harness.ask(prompt)
    show("  model replied", reply, limit=SHOWN // 2)
    return reply


def step1(agent, state):
    for reply in ("Here you go:\n```python\nx = 1\n```\nEnjoy!", "```\ny = 2\n```", "  z = 3\n"):
        show(f"extract_code({reply!r})", agent.extract_code(reply))


def step2(agent, state):
    state["tests"] = agent.write_tests(harness.SPEC, watched_ask)
    show("write_tests returned", state["tests"])


def step3(agent, state):
    show("write_solution returned", agent.write_solution(harness.SPEC, watched_ask))
    feedback = "These tests failed: test_centuries_are_not_leap_years"
    print(f"\nAnd with feedback={feedback!r}:")
    show("write_solution returned", agent.write_solution(harness.SPEC, watched_ask, feedback))


def step4(agent, state):
    out = agent.solve(harness.SPEC, harness.ask)
    if not isinstance(out, dict):
        show("solve returned (expected a dict)", out)
        return
    for number, entry in enumerate(out.get("history") or [], start=1):
        result = entry.get("result", {}) if isinstance(entry, dict) else {}
        print(f"attempt {number}: passed {result.get('passed')}, failed {result.get('failed')}, error {result.get('error')}")
    show("solve returned passed", out.get("passed"))
    show("solve returned iters", out.get("iters"))
    show("solve returned code", out.get("code"))
    state["code"] = out.get("code")


def step5(agent, state):
    if isinstance(state.get("code"), str):
        show("holdout_check(the code solve found)", agent.holdout_check(state["code"]))
    buggy = harness.tasks.LEAP_YEAR.buggy["forgets_centuries"]
    show("holdout_check(a solution that forgets the century rule)", agent.holdout_check(buggy))


STEPS = [
    (1, "extract_code finds the code in a reply", step1),
    (2, "write_tests asks the model for tests", step2),
    (3, "write_solution asks the model for a solution", step3),
    (4, "solve loops until the tests pass", step4),
    (5, "holdout_check runs the held-out tests", step5),
]


def _raised_by_stub(exc: BaseException, path: Path) -> str | None:
    """The name of the agent function that raised `exc` itself, if it is the innermost frame; else None."""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames and Path(frames[-1].filename).resolve() == path:
        return frames[-1].name
    return None


def _where(exc: BaseException, path: Path) -> str:
    """'ValueError: message (agent.py line 12, in solve)': the error and the last line of your file it passed."""
    mine = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve() == path]
    at = f" ({path.name} line {mine[-1].lineno}, in {mine[-1].name})" if mine else ""
    return f"{type(exc).__name__}: {exc}{at}"


if __name__ == "__main__":
    sys.exit(main())
