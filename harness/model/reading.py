"""How the offline model reads a prompt: which task, what is asked (tests, a solution, a fix), what failed."""

# Every pattern here runs in time linear in the prompt (no nested quantifiers that backtrack, no `.*` between two
# words on a line), and only the first and last MAX_READ // 2 characters of a prompt are read: a grader runs this
# model for hundreds of submissions, and a prompt may be megabytes long.

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..tasks import TASKS, Clue, Task
from .symptoms import TEST_NAME, Failure, failures, named_tests, test_names

MAX_READ = 200_000  # characters of a prompt read: its start (the spec) and its end (the feedback); ScriptedAsk too
TESTS, SOLUTION, FIX = "tests", "solution", "fix"

# Signs that the prompt carries the result of a run: these mean FIX, even if the prompt also says "test".
_FEEDBACK = re.compile(
    r"traceback|assertionerror|(?<!raise )(?<!raise\n)\b\w*error:|^[ \t]*E[ \t]{2,}"
    r"|\bfail(s|ed)\b|\bfailing( tests?\b| test_|:)|\b(is|are|was|were|keeps?|still) failing\b|\b\d+ failures?\b"
    r"|\bfailures?:|\bdid(n['’]t| not) pass\b|\b\d+ passed\b"
    r"|\bfix\b|\bcorrect (it|this|that|the|your|my)\b|\btry again\b|\bbroken\b"
    r"|\bstill (wrong|broken|incorrect|not)\b|\b(is|was|are|were|gives?|returns?|got) (\w+ )?(wrong|incorrect)\b"
    r"|\b(last|previous|earlier) (attempt|try|version|solution|code|function|implementation)\b"
    r"|\b(doesn['’]t|does not|didn['’]t|did not) work\b|\bbut (it )?should\b",
    re.I | re.M,
)
_EXPECTED, _GOT = re.compile(r"\bexpected\b", re.I), re.compile(r"\bgot\b", re.I)
# Phrases that mention tests without asking for them ("make it pass the tests", "no tests, please").
_NOT_ASKING_FOR_TESTS = re.compile(
    r"\b(don['’]t|do not|no need to|without|never|not|no)\b[^.\n]{0,25}?\btest"
    r"|\bpass(es|ing)?\b[^.\n]{0,20}?\btest",
    re.I,
)
_ASKS_FOR_TESTS = re.compile(
    r"\bunit[\s-]?tests?\b|\btest[ \t_*-]{0,3}(cases?|suite|functions?|module|file)\b|\bpytest\b"
    r"|\btests? (for|of|that|to|covering|which)\b|^[^\w\n]*tests?\b"
    r"|\b(write|writing|give|generate|create|produce|draft|add|need|want|suggest|propose|list|provide)"
    r"\b([ \t]+[\w`'-]+){0,3}?[ \t]+tests?\b",
    re.I | re.M,
)
_SHORT_TESTS_REQUEST = re.compile(r"[^\w\n]*(\S+[ \t]+){0,3}tests?[^\w\n]*", re.I)  # "leap year tests", on a short line
_ASKS_FOR_CODE = re.compile(r"\b(implement\w*|write|code|coding|solution|solve|function|program|script|def)\b", re.I)


@dataclass(frozen=True)
class Reading:
    """What the offline model understood: the task (None if none it knows), what is asked (TESTS, SOLUTION, FIX or
    None), which of its own tests the prompt names as failing (in the order its tests define them), and every test
    and call it says failed, with the repair each points at (symptoms.py)."""

    task: Task | None
    intent: str | None
    failing: tuple[str, ...] = ()
    failures: tuple[Failure, ...] = ()


def read(prompt: str) -> Reading:
    """Read a prompt the way the offline model does."""
    text = readable(prompt)
    task = task_of(text)
    if task is None:
        return Reading(None, None)
    asked = text.replace(task.spec.strip(), "\n")  # the spec's own words report nothing ...
    wanted = _intent(asked) or (SOLUTION if asked != text else None)  # ... but ask for the function
    return Reading(task, wanted, failing_tests(asked, task), failures(asked, task))


def readable(prompt: str) -> str:
    """The part of a prompt that is read: all of it, or its start and its end when it is longer than MAX_READ."""
    if len(prompt) <= MAX_READ:
        return prompt
    return prompt[: MAX_READ // 2] + "\n" + prompt[-(MAX_READ // 2) :]


def task_of(text: str) -> Task | None:
    """The task the prompt is about: a HumanEval task whose signature line it holds; else the one named first (by
    its function or an alias); if none is named, the first whose clues are all there (`Task.clues`). Tasks are read
    from TASKS at each call, so any task there counts."""
    if "def " in text:  # only code can hold a signature; the bank's modules load on the first such prompt, not before
        from ..tasks import humaneval

        known = humaneval.task_in(text)  # a HumanEval prompt first: its words may name a lab task too
        if known is not None:
            return known
    tasks = list(TASKS.values())
    found = [(m.start(), i) for i, task in enumerate(tasks) if (m := _names(task.function, task.aliases).search(text))]
    if found:
        return tasks[min(found)[1]]
    return next((task for task in tasks if any(_found(clue, text) for clue in task.clues)), None)


@functools.lru_cache(maxsize=64)
def _names(function: str, aliases: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join((rf"\b{re.escape(function)}\b", *aliases)), re.I)


def _found(clue: Clue, text: str) -> bool:
    """All of the clue's words in the text, or on one of its lines (looked for only once all are in the text)."""
    words = [re.compile(word, re.I) for word in clue.words]
    if not all(word.search(text) for word in words):
        return False
    return not clue.on_one_line or any(all(word.search(line) for word in words) for line in text.splitlines())


def intent(prompt: str) -> str | None:
    """What the prompt asks for: TESTS, SOLUTION or FIX; None if it is no task the model knows, or asks nothing."""
    return read(prompt).intent


def _intent(text: str) -> str | None:
    if _FEEDBACK.search(text) or _expected_got(text):
        return FIX
    wanted = _NOT_ASKING_FOR_TESTS.sub(" ", text)
    if _ASKS_FOR_TESTS.search(wanted) or any(
        len(line) <= 80 and _SHORT_TESTS_REQUEST.fullmatch(line) for line in wanted.splitlines()
    ):
        return TESTS
    if TEST_NAME.search(text):  # a failing test's name, pasted on its own
        return FIX
    if _ASKS_FOR_CODE.search(text):
        return SOLUTION
    return None


def _expected_got(text: str) -> bool:
    """"expected ... got" on one line, as assertion messages say it (checked line by line, so it stays linear)."""
    for line in text.splitlines():
        expected = _EXPECTED.search(line)
        if expected and _GOT.search(line, expected.end()):
            return True
    return False


def failing_tests(text: str, task: Task) -> tuple[str, ...]:
    """The model's own tests that the prompt names, not counting their definitions (`def test_...`)."""
    if task.script is None:
        return ()
    named = {name for name, _ in named_tests(text)}
    return tuple(name for name in test_names(task.script.tests) if name in named)
