"""The five steps of the lab: number, function, title, what each needs first. One source of truth for all views."""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the project folder: harness/, lab/, checks/, solutions/
DEFAULT_AGENT = ROOT / "lab" / "agent.py"
REFERENCE_AGENT = ROOT / "solutions" / "agent.py"


@dataclass(frozen=True)
class Step:
    """One graded step: the function the learner writes and the steps that must pass before it can be checked."""

    number: int
    function: str
    title: str
    needs: tuple[int, ...] = ()
    time_limit: float = 3.0  # seconds one call of the learner's function may take before it is stopped

    @property
    def module(self) -> str:
        """The pytest file that defines this step's checks."""
        return f"checks.test_step{self.number}_{self.function}"

    @property
    def label(self) -> str:
        return f"step {self.number} ({self.function})"

    def checks(self):
        """The step's checks, in the order they run (imported from its pytest file)."""
        from .define import checks_in

        return checks_in(importlib.import_module(self.module))


STEPS = (
    Step(1, "extract_code", "find the code in a model's reply"),
    Step(2, "write_tests", "ask the model for tests", needs=(1,)),
    Step(3, "write_solution", "ask the model for a solution", needs=(1,)),
    Step(4, "solve", "loop until the tests pass", needs=(1, 2, 3), time_limit=10.0),
    # Step 5 only runs the held-out tests, so it can be graded on its own.
    Step(5, "holdout_check", "check against held-out tests", time_limit=10.0),
)
BY_NUMBER = {step.number: step for step in STEPS}


def step(key) -> Step:
    """The step for a number (1-5, int or str) or a function name ('solve'); LookupError if there is none."""
    text = str(key).strip()
    for candidate in STEPS:
        if text in (str(candidate.number), candidate.function):
            return candidate
    names = ", ".join(f"{s.number} or {s.function}" for s in STEPS)
    raise LookupError(f"There is no step {key!r}: use one of {names}.")


def agent_path(path=None) -> Path:
    """The agent.py to use: `path` if given, else $SPEC2CODE_AGENT, else lab/agent.py."""
    chosen = path or os.environ.get("SPEC2CODE_AGENT", "").strip() or DEFAULT_AGENT
    return Path(chosen).expanduser().resolve()


def shown(path: Path) -> str:
    """A path as a person reads it: relative to the current folder when it is inside it."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    except ValueError:
        return str(path)
