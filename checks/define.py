"""How a check is written: a function of the agent whose docstring is the sentence the student reads.

    @check
    def drops_the_python_tag(agent):
        \"\"\"drops the `python` tag of a ```python fence\"\"\"
        got = agent.call("extract_code", "```python\\nx = 1\\n```")
        if got != "x = 1":
            fail(repr("x = 1"), got, hint="did you drop the ```python tag?")

A check passes by returning and fails by raising CheckFailed (what was expected, what came back, a hint).
The engine runs it; the step's module (checks/stepN_*.py) also shows the engine's verdicts to pytest.
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass
from typing import Callable

from harness import text

from .scripts import reply_with, trim

MAX_SHOWN = 200  # characters of a value shown in a message before it is cut short
BLOCK_LINES = 12  # lines of expected or returned text shown in a message
DIFF_FROM = 6  # lines from which a message also marks the lines that differ


@dataclass(frozen=True)
class Check:
    """One behaviour of one step. `follows`: checks whose failure makes this one fail too (it then says so)."""

    name: str
    description: str
    run: Callable
    follows: tuple[str, ...] = ()


class CheckFailed(Exception):
    """A check's verdict: the behaviour is not there. The message says expected and got; the hint, what to try."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


_REGISTRY: dict[str, list[Check]] = {}


def check(function: Callable | None = None, *, follows: tuple[str, ...] = ()):
    """Register `function` as a check of the step its module defines; its docstring's first line is its sentence.

    `@check(follows=("other_check",))`: when other_check fails too, this check's failure follows from it, and the
    student reads "follows from: <other check>" here instead of a second hint pointing elsewhere. (A call of the
    function that raises, hangs or returns the wrong shape is the engine's to name, for every check it fails.)
    """

    def register(function: Callable) -> Callable:
        description = (function.__doc__ or function.__name__).strip().splitlines()[0]
        _REGISTRY.setdefault(function.__module__, []).append(Check(function.__name__, description, function, follows))
        return function

    return register(function) if function is not None else register


def checks_in(module) -> list[Check]:
    return list(_REGISTRY.get(module.__name__, []))


def checks_of(step) -> list[Check]:
    """A step's checks, in the order they run (imported from its module, checks/stepN_*.py)."""
    return checks_in(importlib.import_module(step.module))


def cut(value, limit: int = MAX_SHOWN) -> str:
    """`repr(value)`, cut short to about `limit` characters."""
    return text.cut(repr(value), limit)


def fail(expected: str, got, hint: str = "") -> None:
    """Fail the check: `expected` is said in words (or a cut() value); `got` is the value that came back."""
    raise CheckFailed(f"expected {expected}, got {cut(got)}", hint)


def fail_text(expected: str, got, hint: str = "") -> None:
    """Fail the check on text that should have come back (code, tests): both shown as text, line by line, with the
    lines that differ marked when the text is long. `got` that is not a str is shown as its value."""
    if not isinstance(got, str) or ("\n" not in expected and "\n" not in got):
        fail(cut(expected), got, hint)
    parts = ["expected this text:", _block(expected), "got:", _block(got)]
    if max(expected.count("\n"), got.count("\n")) >= DIFF_FROM:
        changes = list(difflib.unified_diff(expected.splitlines(), got.splitlines(), "expected", "got", lineterm="", n=0))
        parts += ["the lines that differ (- expected, + got):", _block("\n".join(changes[2:]))]
    raise CheckFailed("\n".join(parts), hint)


def _block(text: str) -> str:
    lines = text.splitlines() or [""]
    shown = lines[:BLOCK_LINES] + ([f"[... {len(lines) - BLOCK_LINES} more lines]"] if len(lines) > BLOCK_LINES else [])
    return "\n".join("    | " + text_cut(line) for line in shown)


def text_cut(line: str) -> str:
    return text.cut(line, 160)


def need(condition: bool, message: str, hint: str = "") -> None:
    """Fail the check with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message, hint)


def need_type(got, kind: type, function: str, hint: str = "") -> None:
    """Fail unless `got` is exactly of type `kind` (a str, a list, a dict...)."""
    if type(got) is not kind:
        name = {str: "a str", list: "a list", dict: "a dict", bool: "a bool", int: "an int"}.get(kind, kind.__name__)
        got_name = getattr(got, "type_name", type(got).__name__)  # a prompt kept as scripted.NotAString says its own
        fail(f"{function} to return {name}", got, hint or f"return {name}, not {got_name}")


def need_extracted(got, code: str, function: str, what: str) -> None:
    """Fail unless `got` is `code`, the code of a scripted reply, as extract_code would give it back."""
    need_type(got, str, function, f"return the code of the {what} as a str")
    if trim(got) != trim(code):
        hint = "return extract_code(reply): the code, without the model's words and fences"
        if got.strip() == reply_with(code).strip():
            hint = "you returned the whole reply: pass it through extract_code first"
        fail_text(trim(code), got, hint)


def asked_once(model, function: str) -> str:
    """The one prompt `function` sent through the ask it was given; fail if it asked another way or another count."""
    given, default = model.given, model.default
    if default and not given:
        raise CheckFailed(
            f"expected {function} to call the ask it was given, but it called harness.ask {len(default)} time(s)",
            "you called harness.ask instead of the ask you were given: use the `ask` parameter",
        )
    if len(given) != 1:
        raise CheckFailed(
            f"expected {function} to call ask once, but it called it {len(given)} times",
            "ask once, return the code from that one reply" if given else "call ask(prompt) and use its reply",
        )
    prompt = given[0]
    need_type(prompt, str, "ask", "build the prompt as one string, then call ask(prompt)")
    return prompt


def prompt_sent(model, function: str) -> str:
    """The last prompt `function` sent, through the ask it was given or harness.ask (other checks judge which)."""
    prompts = [prompt for _, prompt in model.calls]
    need(bool(prompts), f"expected {function} to call ask, but it did not", "call ask(prompt) and use its reply")
    need_type(prompts[-1], str, "ask", "build the prompt as one string, then call ask(prompt)")
    return prompts[-1]


def pytest_view(number: int, module: str):
    """The engine's verdict on each check of step `number`, for pytest: (test_check, pytest_generate_tests), which the
    step's module holds under those names. The hook makes one test of test_check per check when pytest collects it,
    so that importing a step (as the grader does, for every step) never imports pytest (some 40 ms)."""

    def test_check(check, graded):
        verdict(graded, number, check)

    def pytest_generate_tests(metafunc):
        if metafunc.function is test_check:
            metafunc.parametrize("check", [c.name for c in _REGISTRY.get(module, [])])

    return test_check, pytest_generate_tests


def verdict(graded: dict, number: int, name: str) -> None:
    """Pass or fail the way the engine decided for one check. A step not started, or blocked, fails too (with the
    engine's message), so a CI gate on `pytest --pyargs checks` never passes a blank or half-done submission."""
    import pytest

    step = next((s for s in graded["steps"] if s["step"] == number), None)
    if step is None:
        pytest.skip(f"step {number} was not graded")
    found = next((c for c in step["checks"] if c["name"] == name), None)
    found = found or (step["checks"][0] if step["status"] == "failed" and step["checks"] else None)
    if found is None:
        pytest.skip(step["status"])
    if found["status"] == "passed":
        return
    cause = next((c for c in step["checks"] if c["name"] == found.get("follows")), {})  # its hint is the one to read
    hint = found["hint"] or cause.get("hint", "")
    hint = f"\nhint: {hint}" if hint else ""
    pytest.fail(f"{found['description']}\n{found['message'] or found['status']}{hint}", pytrace=False)
