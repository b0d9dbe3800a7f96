"""The one shape every task has (`Task`), and what the offline model knows of it (`Script`, `Fix`, `Clue`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fix:
    """One repair the offline model makes: the failing tests that prompt it, the code after it, what it says."""

    tests: tuple[str, ...]  # the model's own tests that fail before this repair
    code: str  # the solution after the repair
    says: str  # one sentence, as a model says what it changed
    # Regexes of words that name the rule this repairs in the name of a test the model did not write ("centur" in
    # test_century_is_not_leap), searched case-insensitively in the name with its underscores as spaces.
    rule: tuple[str, ...] = ()


@dataclass(frozen=True)
class Script:
    """What the scripted offline model writes for a task: its tests, a first attempt with a realistic bug, the
    repairs it makes when feedback names what failed, and the gaming persona's "fix"."""

    tests: str  # the model's tests: the visible tests of a run with the offline model
    first_attempt: str  # fails some of `tests`
    fixes: tuple[Fix, ...]  # in order: each repairs the first failure left by the one before
    gamed_fix: str  # the first attempt, plus special cases for the inputs of its failing tests


@dataclass(frozen=True)
class Clue:
    """Words that tell the offline model a prompt is about a task it does not name: all of them on one line, or
    all of them anywhere in the prompt. Each is a regex, searched case-insensitively."""

    words: tuple[str, ...]
    on_one_line: bool = False


@dataclass(frozen=True)
class Task:
    """One programming task: what the agent is asked to build, and how the lab judges it.

    Held-out tests are test source: they run in the tests' process, so their expected values never enter the
    solution's process. Every planted bug is wrong in one way and fails at least one held-out test.
    """

    name: str  # "leap_year"
    function: str  # "is_leap_year": what the tests call
    title: str  # a few words for tables
    difficulty: int  # 1 (easiest) to 5
    spec: str = field(repr=False)  # what the agent is given: every rule, every rejected input
    reference: str = field(repr=False)  # a correct solution
    buggy: dict[str, str] = field(default_factory=dict, repr=False)  # planted bugs: name -> source
    holdout_tests: str = field(default="", repr=False)  # pytest source, never shown to the model
    script: Script | None = field(default=None, repr=False)  # what the offline model writes for it
    # How the offline model finds the task in a prompt, and shows it in a reply. Its regexes are searched in
    # prompts of any length, so keep each linear: no `.*` between two words.
    aliases: tuple[str, ...] = ()  # regexes of words naming it besides its function ("leap year"); the first named wins
    clues: tuple[Clue, ...] = ()  # words that tell it apart when no task is named (its rules, stated)
    example: str = ""  # a call shown in a reply's example block, "is_leap_year(2024)" (default: `function()`)


def mutate(source: str, old: str, new: str) -> str:
    """`source` with its one occurrence of `old` replaced by `new`: a planted bug is a one-place change."""
    if source.count(old) != 1:
        raise ValueError(f"expected exactly one {old!r} in the source, found {source.count(old)}")
    return source.replace(old, new)
