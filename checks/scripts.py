"""What the checks' scripted models say, drawn afresh for every grading: a second spec, replies, tests, solutions.

Every input a check sends an agent comes from a `Script`, seeded by the grader where the agent cannot see it: the
names, values and fences of step 1's replies, step 2 and 3's spec, tests and feedback, step 4's tests and the wording
of its solutions, step 5's solutions. The behaviour each check probes stays the same for every seed, so an honest
agent gets the same verdict from any draw, while an agent keyed on the inputs of one grading (a lookup table of
replies, sources or run results) meets inputs it has never seen.

The leap-year task itself (spec, reference, planted bugs, held-out tests) lives in harness.tasks.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from functools import cached_property
from random import Random

from harness.tasks import DEFAULT, LEAP_YEAR, TASKS, Task
from harness.tasks import task as named_task

# Test code with no test in it: a run of it passes nothing and fails nothing.
NO_TESTS = '''\
def helper_not_a_test():
    assert is_leap_year(2024) is True
'''

_WORDS = ("amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "islet", "juniper", "kelp",
          "lumen", "maple", "nectar", "orbit", "pebble", "quartz", "ridge", "sable", "tundra", "umber", "vale")

# What the second task counts: (what, how the spec says it, the characters, others to mix in, words for test names).
_COUNTED = (
    ("vowels", "vowels (a, e, i, o, u, in either case)", "aeiouAEIOU", "bcdfgklmnprstBDKT", ("lowercase", "capital")),
    ("digits", "digits (0 to 9)", "0123456789", "abcxyzQ-", ("single", "repeated")),
    ("capitals", "capital letters (A to Z)", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcxyz09", ("leading", "scattered")),
    ("spaces", "spaces (the character ' ')", " ", "abcxyz-", ("inner", "outer")),
)


@dataclass(frozen=True)
class OtherTask:
    """A spec other than harness.SPEC (so a prompt that hard-codes the lab's spec is caught), with model material."""

    spec: str
    function: str
    tests: str  # what the scripted model "writes" as tests for it
    solution: str  # what it "writes" as a solution
    feedback: str  # a feedback text naming a failing test; no leading or trailing space, so strip() keeps it whole


@dataclass(frozen=True)
class SolveTests:
    """Leap-year tests the scripted model "writes" in step 4; each planted bug fails exactly one of them."""

    source: str
    ordinary: str  # the name of the test of ordinary years
    century: str  # ... of the century rule: the century bug and the missing 400 rule fail it
    invalid: str  # ... of invalid input: the missing validation fails it


class Script:
    """One grading's draw. The same Script gives the same material every time it is asked (properties are kept).

    `task`: the task the checks that run the lab's own model use (step 2's offline tests, step 4's task it was never
    shown); leap year by default.
    """

    def __init__(self, seed: int | None = None, task: str | Task | None = None):
        self.seed = secrets.randbits(64) if seed is None else seed
        self.random = Random(self.seed)
        self.task = named_task(task) if task else DEFAULT

    @cached_property
    def unseen(self) -> Task:
        """A task the five steps never show: the chosen task if it is not the default, else one drawn from the bank."""
        if self.task is not DEFAULT:
            return self.task
        return self.random.choice([t for t in TASKS.values() if t is not DEFAULT])

    def word(self) -> str:
        return self.random.choice(_WORDS)

    def identifier(self) -> str:
        return f"{self.word()}_{self.random.randrange(10, 100)}"

    # --- step 1 ----------------------------------------------------------------------------------------------

    @cached_property
    def names(self) -> list[str]:
        """Distinct identifiers for the code in step 1's replies."""
        found: list[str] = []
        while len(found) < 8:
            name = self.identifier()
            if name not in found:
                found.append(name)
        return found

    @cached_property
    def numbers(self) -> list[int]:
        return [self.random.randrange(2, 1000) for _ in range(8)]

    # --- steps 2 and 3 ---------------------------------------------------------------------------------------

    @cached_property
    def other(self) -> OtherTask:
        what, said, characters, others, kinds = self.random.choice(_COUNTED)
        function = f"{self.random.choice(('count', 'tally', 'number_of'))}_{what}"
        spec = (f"Write a Python function `{function}(text)` that returns how many characters of\n"
                f"`text` are {said}.\n")
        samples = [self._sample(characters, others) for _ in kinds]
        names = [f"test_counts_{kind}_{what}" for kind in kinds]
        tests = "\n\n".join(
            f"def {name}():\n    assert {function}({text!r}) == {count}\n" for name, (text, count) in zip(names, samples)
        )
        solution = f"def {function}(text):\n    return sum(1 for character in text if character in {characters!r})\n"
        feedback = f"These tests failed: {names[-1]}\nAssertionError: assert 0 == {samples[-1][1]}"
        return OtherTask(spec, function, tests, solution, feedback)

    def _sample(self, characters: str, others: str) -> tuple[str, int]:
        """A short text with 2-5 of the counted characters among others, and how many there are."""
        pool = [self.random.choice(characters) for _ in range(self.random.randrange(2, 6))]
        pool += [self.random.choice(others) for _ in range(4)]
        self.random.shuffle(pool)
        return "".join(pool), len(pool) - 4

    # --- step 4 ----------------------------------------------------------------------------------------------

    @cached_property
    def solve_tests(self) -> SolveTests:
        words = self.random.sample(_WORDS, 3)
        ordinary, century, invalid = (f"test_{kind}_{word}" for kind, word in
                                      zip(("ordinary_years", "century_rule", "invalid_year"), words))
        leap = self.random.choice([y for y in range(1904, 2400, 4) if y % 100])
        common = self.random.choice([y for y in range(1901, 2400) if y % 4])
        hundred = self.random.choice((1700, 1800, 1900, 2100, 2200, 2300))
        four_hundred = self.random.choice((1600, 2000, 2400, 2800))
        bad = self.random.choice((0, -1, -4, -400))
        source = (
            "import pytest\n\n\n"
            f"def {ordinary}():\n    assert is_leap_year({leap}) is True\n    assert is_leap_year({common}) is False\n\n\n"
            f"def {century}():\n    assert is_leap_year({hundred}) is False\n    assert is_leap_year({four_hundred}) is True\n\n\n"
            f"def {invalid}():\n    with pytest.raises(ValueError):\n        is_leap_year({bad})\n"
        )
        return SolveTests(source, ordinary, century, invalid)

    def reworded(self, code: str) -> str:
        """`code` with its parameter renamed and a comment of its own: the same behaviour, a text never seen."""
        name = self.random.choice(("year", "y", "yr", "value", "n", "candidate"))
        text = re.sub(r"\byear\b", name, code)
        return f"# {self.identifier()}\n{text}"

    @cached_property
    def solutions(self) -> dict[str, str]:
        """The reference and the planted bugs, each reworded once for this grading."""
        return {"reference": self.reworded(LEAP_YEAR.reference),
                **{name: self.reworded(code) for name, code in LEAP_YEAR.buggy.items()}}

    # --- step 5 ----------------------------------------------------------------------------------------------

    @cached_property
    def fitted(self) -> str:
        """A solution fitted to a handful of years (as a model fits its visible tests): it does not generalise."""
        years = sorted(self.random.sample([1600, 1984, 2000, 2004, 2012, 2028, 2400, 1996, 2024], 5))
        return self.reworded(
            "def is_leap_year(year):\n"
            "    if isinstance(year, bool) or not isinstance(year, int) or year < 1:\n"
            "        raise ValueError(f\"year must be a positive integer, got {year!r}\")\n"
            f"    if year in {tuple(years)}:\n"
            "        return True\n"
            "    return False\n"
        )


def reply_with(code: str, style: int = 0) -> str:
    """A model reply that carries `code`, in one of the usual shapes (all of which step 1 handles)."""
    code = code.rstrip("\n")
    if style == 1:
        return f"```\n{code}\n```"
    return f"Here you go:\n\n```python\n{code}\n```\n\nLet me know if anything is unclear."


def trim(text: str) -> str:
    """Code as graded: blank lines just inside the fences and trailing whitespace do not count."""
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()
