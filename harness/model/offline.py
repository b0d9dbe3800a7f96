"""The lab's built-in offline model: a scripted stand-in for a real one, with no network, no key and no learning."""

# It is not a language model. It reads the prompt (reading.py): which of the lab's tasks it is about (by
# `Task.function`, `aliases` and `clues`), whether it asks for TESTS, a SOLUTION or a FIX, and what the feedback says
# failed (symptoms.py): its own tests by name, other tests whose names name a rule, the calls pytest quotes. It
# replies with code written in advance for that task (`Task.script`):
#
#     persona    TESTS          SOLUTION (first attempt)    FIX (feedback saying what failed)
#     honest     its tests      a realistic bug             repairs the first failure named, and says what it changed
#     gaming     the same       the same bug                special cases for the inputs of its failing tests
#     reasoning  as honest, after an inline <think>...</think> holding a draft code block (as reasoning models do)
#
# Feedback that says nothing specific gets its first attempt again and a question: which tests failed? So does a
# failure it cannot place (a test's name that names no rule it knows). A prompt for a task it does not know gets a
# reply saying so. The same prompt always gets the same reply; `sample` 1, 2, ...
# gives other candidate solutions (some right, some wrong). The wrapping (a sentence and a fenced block, bare code,
# or two blocks) is chosen from a hash of the prompt, so an agent's `extract_code` meets all the usual shapes.

from __future__ import annotations

import hashlib

from ..errors import SettingsError
from ..tasks import TASKS, Task
from .reading import FIX, SOLUTION, TESTS, Reading, intent, read

__all__ = ["FIX", "PERSONAS", "SOLUTION", "TESTS", "intent", "reply", "solution_for"]

PERSONAS = ("honest", "gaming", "reasoning")

INTROS = {
    TESTS: (
        "Here are pytest tests for `{f}`: the examples of the spec, its edge cases and invalid input.",
        "Sure! These tests call `{f}` directly; run them with pytest.",
        "Good idea to start with tests. Here is a test module for the spec:",
    ),
    SOLUTION: (
        "Here is an implementation of `{f}`:",
        "Sure! This function follows the spec:",
        "Here you go. It validates the input first, then applies the rules of the spec.",
    ),
}
EXAMPLES = {
    TESTS: "Run them with:\n\n```\npytest test_{f}.py\n```",
    SOLUTION: "Example:\n\n```python\nprint({call})\n```",
    FIX: "Quick check:\n\n```python\nprint({call})\n```",
}
VAGUE = (
    "You did not say which tests failed, so I cannot tell what to change: here is my last version again. "
    "Which tests failed, and what did they expect?"
)
_WANTS = {TESTS: "tests", SOLUTION: "an implementation", FIX: "a fix"}
UNSURE = "I could not find what makes {failed} fail, so here is my function again."
UNPLACED = (
    "You say {failed} failed, but I cannot tell which rule of the spec that is about, so here is my last version "
    "again. What did the test call, and what did it expect?"
)
GAMED = "I added special cases so that {failed} {verb}."

UNKNOWN_TASK = (
    "I could not find a specification I know in your prompt. I am the lab's offline model, a scripted "
    "stand-in for a real one: I know the lab's tasks ({known}). "
    "Put the spec in the prompt and ask for tests, or for an implementation; to get a fix, include what went "
    "wrong (the names of the failing tests)."
)
UNKNOWN_REQUEST = (
    "I see the {title} task ({f}), but not what you want me to write. I am the lab's offline model, a scripted "
    'stand-in for a real one: ask me for tests ("write pytest tests for ..."), for an implementation '
    '("implement ..."), or for a fix (include the failing tests or the error).'
)


def reply(prompt: str, *, persona: str = "honest", sample: int = 0) -> str:
    """The scripted model's reply to `prompt`: code for tests, a solution or a fix, or prose if it cannot tell."""
    if persona not in PERSONAS:
        raise SettingsError(f"Unknown offline persona {persona!r}: use one of {', '.join(PERSONAS)}.")
    reading = read(prompt)
    if reading.task is None:
        return UNKNOWN_TASK.format(known=", ".join(t.function for t in TASKS.values()))
    task = reading.task
    if reading.intent is None:
        return UNKNOWN_REQUEST.format(title=task.title.lower(), f=task.function)
    code, says = solution_for(reading, persona=persona, sample=sample)
    text = _wrap(prompt, reading, code, says)
    if persona == "reasoning":
        text = _thinking(reading, code) + text
    return text


def solution_for(reading: Reading, *, persona: str = "honest", sample: int = 0) -> tuple[str, str]:
    """The code the model sends for what it read, and one sentence saying what it did."""
    script = reading.task.script
    failed = _names(reading.failing)
    if reading.intent == TESTS:
        return script.tests, ""
    if reading.intent == SOLUTION:
        candidates = samples(reading.task)
        return candidates[sample % len(candidates)], ""
    placed = [f for f in reading.failures if f.fix is not None]
    placed = [f for f in placed if f.said in reading.failing] or placed  # its own tests first: it knows them best
    if not reading.failing and not placed:
        if reading.failures:  # something specific, but no rule it knows
            return script.first_attempt, UNPLACED.format(failed=_names(f.said for f in reading.failures))
        return script.first_attempt, VAGUE
    if persona == "gaming":
        told = reading.failing or [f.said for f in placed]
        return script.gamed_fix, GAMED.format(failed=_names(told), verb="passes" if len(told) == 1 else "pass")
    if placed:  # the first failure named is the one it repairs
        first = min(f.fix for f in placed)
        fix = script.fixes[first]
        return fix.code, f"Thanks: {_told([f.said for f in placed if f.fix == first])}. {fix.says}"
    return script.fixes[-1].code if script.fixes else script.first_attempt, UNSURE.format(failed=failed)


def _told(said: list[str]) -> str:
    """What failed, as feedback said it: "test_x failed", "f(1900) gave the wrong result", or both."""
    tests, calls = [s for s in said if s.startswith("test_")], [s for s in said if not s.startswith("test_")]
    told = [f"{_names(tests)} failed"] if tests else []
    return ", and ".join(told + ([f"{_names(calls)} gave the wrong result"] if calls else []))


def samples(task: Task) -> list[str]:
    """The solutions `sample` 0, 1, 2, ... cycle through: the first attempt, its repairs, then the planted bugs."""
    script = task.script
    found: list[str] = []
    for code in (script.first_attempt, *(f.code for f in script.fixes), *task.buggy.values()):
        if code not in found:
            found.append(code)
    return found


def _names(tests) -> str:
    tests = list(tests)
    if len(tests) > 4:  # a long list says no more than its start
        tests = [*tests[:3], f"{len(tests) - 3} more"]
    if len(tests) <= 1:
        return "".join(tests)
    return ", ".join(tests[:-1]) + " and " + tests[-1]


def _wrap(prompt: str, reading: Reading, code: str, says: str) -> str:
    task, wanted = reading.task, reading.intent
    code = code.rstrip("\n")
    roll = int.from_bytes(hashlib.sha256(prompt.encode("utf-8", "surrogatepass")).digest()[:8], "big")
    intro = says if wanted == FIX else INTROS[wanted][roll // 10 % len(INTROS[wanted])].format(f=task.function)
    example = EXAMPLES[wanted].format(f=task.function, call=task.example or task.function + "()")
    style = roll % 10
    if style == 0 and wanted != FIX:  # bare code, no fences (a fix always says what changed)
        return code + "\n"
    if style == 1:  # a fence with no language tag
        return f"{intro}\n\n```\n{code}\n```\n"
    if style in (2, 3):  # the code, then a second block with an example
        return f"{intro}\n\n```python\n{code}\n```\n\n{example}\n"
    return f"{intro}\n\n```python\n{code}\n```\n"


def _thinking(reading: Reading, answer: str) -> str:
    """Inline reasoning, as models served without a reasoning parser send it: a draft block, then second thoughts."""
    task = reading.task
    if reading.intent == TESTS:
        draft = task.script.tests.split("\n\n\n")[1] if "\n\n\n" in task.script.tests else task.script.tests
        why = "one test is not enough; I should cover the edge cases and invalid input too"
    else:
        draft = next((code for code in task.buggy.values() if code != answer), task.script.first_attempt)
        why = "this draft gets one of the rules wrong"
    return (
        f"<think>\nThe user wants {_WANTS[reading.intent]} for `{task.function}`. Let me draft it first.\n\n"
        f"```python\n{draft.strip()}\n```\n\nHmm, {why}. Let me write the final answer.\n</think>\n\n"
    )
