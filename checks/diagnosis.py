"""One diagnosis of a failed call of a learner's function: its kind, its step, its place, one message, one hint.

Every surface that runs a learner's agent (check and grade, `spec2code try`, the try cell, lab/try_it.py) turns
what the agent runner raised, or a value that breaks the contract, into a Diagnosis here, and shows its message and
hint in its own frame. So a failure is decided once and worded once.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import PurePath

from harness import settings, syntax
from harness.text import cut

from .runner.outcomes import AgentError, Crashed, LoadFailed, NotStarted, Raised, TimedOut, counted_words
from .steps import BY_FUNCTION, Step, stub_line

KINDS = ("syntax error", "load error", "not started", "calls a stub", "raised", "wrong parameters", "loop limit",
         "timed out", "exited", "crashed", "wrong return", "blocked")
SYNTAX = ("SyntaxError", "IndentationError", "TabError")
SOLVE_KEYS = ("code", "tests", "passed", "iters", "history")  # what solve's dict holds (the contract)
SHOWN = 120  # characters of a returned value quoted in a message

EXIT_HINT = "return a value instead of calling exit(), sys.exit() or os._exit(): they end the process your code runs in"
STUB_HINT = "replace that raise line with your code"
_PARAMETERS_HINT = "keep the parameters of the stub (same names, same defaults), and call functions that way"
_RAISED_HINT = "read the error and the line it names: what did that line do with the value it was given?"
_CRASH_HINT = "look for code that stops, kills or crashes its own process (os.kill, signal, ctypes); return a value"
_HANG_HINT = "look for a loop that never ends, or a call that waits forever (input())"
_NO_MODEL_HINT = "call ask (or a function that asks) only in the steps that are given a model: 2, 3 and 4"
_CALL = re.compile(r"^(\w+)\(\) (?:missing|takes|got)\b")  # Python's words for a call that does not fit a signature


@dataclass(frozen=True)
class Diagnosis:
    """What went wrong in one call of a learner's function. `step` and `function`: the step the fault belongs to
    (None for a file that does not load); `file`: the agent file as the learner knows it (settings.shown; a
    message names it by its own name); `line` and `source`: the learner's line to look at, when there is one."""

    kind: str
    message: str
    hint: str
    step: int | None = None
    function: str | None = None
    file: str = ""
    line: int | None = None
    source: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.kind!r} is not a kind of diagnosis: {', '.join(KINDS)}")

    @property
    def label(self) -> str:
        """The step as the lab says it, "step 1 (extract_code)"; a function's name if not a step's; "" if none."""
        return f"step {self.step} ({self.function})" if self.step else self.function or ""

    def elsewhere(self, called: str | None) -> str:
        """The label of the step at fault when it is not the function called (and the message does not name it)."""
        return self.label if self.step and self.function != called and self.kind != "calls a stub" else ""

    @property
    def headline(self) -> str:
        """What happened and where, without the exception's own words (which follow the first ": ")."""
        return self.message.split(": ", 1)[0]

    @property
    def fault(self) -> tuple:
        """What two diagnoses share when they are the same fault (a later call failing the same way follows it)."""
        return self.kind, self.function, self.line, self.source

    def data(self) -> dict:
        """As plain data, for a report: kind, step, function, file, line and source (message and hint go beside).
        The file is given by its own name, as messages say it: where it lies on the grading machine (a temporary
        folder of Gradescope's, say) is the report's "agent", said once, and the same verdict reads the same anywhere."""
        return {"kind": self.kind, "step": self.step, "function": self.function, "file": PurePath(self.file).name,
                "line": self.line, "source": self.source}


def sentence(text: str) -> str:
    """`text` ended as a sentence (a message or hint is written without its full stop, for the frame to add)."""
    return text if text.endswith((".", "?", "!")) else f"{text}."


class WrongReturn(Exception):
    """A function returned a value that breaks its step's contract; `.diagnosis` says how."""

    def __init__(self, diagnosis: Diagnosis):
        super().__init__(diagnosis.message)
        self.diagnosis = diagnosis


def diagnose(outcome: AgentError | WrongReturn, function: str | None, path, *, source: str | None = None) -> Diagnosis:
    """The diagnosis of what the agent runner raised for a call of `function` in the agent file at `path`.

    `source` (the agent's text, as loaded) lets a loop or a changed signature be shown at the learner's own line.
    """
    file = settings.shown(path)
    if isinstance(outcome, WrongReturn):
        return outcome.diagnosis
    if isinstance(outcome, LoadFailed):
        info = outcome.info
        kind = "syntax error" if info.get("type") in SYNTAX else "load error"
        return Diagnosis(kind, str(outcome).rstrip("."), outcome.hint.rstrip("."), file=file, line=info.get("line"),
                         source=info.get("source") or "")
    if isinstance(outcome, NotStarted):
        return _stub("not started", function, function, file, outcome.info.get("line"), outcome.info.get("source"))
    if isinstance(outcome, TimedOut):
        return _timed_out(outcome, function, file, source)
    if isinstance(outcome, Crashed):
        if outcome.exit_code is not None:
            exited = f"{function} ended its process: it exited with code {outcome.exit_code}"
            return _in(function, file, "exited", exited, EXIT_HINT)
        return _in(function, file, "crashed", f"{function} stopped without a result: {outcome}", _CRASH_HINT)
    return _raised(outcome, function, file, source)


def not_started(function: str, path, source: str) -> Diagnosis:
    """The diagnosis of a step whose function is still the stub, read from the source (checks.steps.is_stub)."""
    line = stub_line(source, function)
    return _stub("not started", function, function, settings.shown(path), line, _line_of(source, line))


def blocked(current: Step, blocker: Step, path) -> Diagnosis:
    """A step that cannot count until an earlier one it needs passes."""
    return Diagnosis("blocked", f"blocked until {blocker.label} passes", f"make {blocker.label} pass first",
                     current.number, current.function, settings.shown(path))


def returned(function: str, value, path) -> Diagnosis | None:
    """The diagnosis of a value that breaks the contract of the step `function` (None when it keeps it)."""
    step = BY_FUNCTION.get(function)
    if step is None:
        return None
    said = _contract_broken(function, value)
    if said is None:
        return None
    return Diagnosis("wrong return", said[0], said[1], step.number, function, settings.shown(path))


def _contract_broken(function: str, value) -> tuple[str, str] | None:
    if function in ("extract_code", "write_tests", "write_solution"):
        if type(value) is str:
            return None
        what = {"extract_code": "the code", "write_tests": "the code of the tests",
                "write_solution": "the code of the solution"}[function]
        return f"{function} returns {_quoted(value)}, not a str", f"return {what} as a str"
    if function == "solve":
        if type(value) is not dict:
            return (f"solve returns {_quoted(value)}, not a dict",
                    "return a dict with the keys code, tests, passed, iters and history")
        missing = [key for key in SOLVE_KEYS if key not in value]
        if not missing:
            return None
        has = cut(", ".join(value), SHOWN) or "no keys"
        return (f"solve returns a dict without {', '.join(missing)}: it has {has}",
                "return {" + ", ".join(f"'{key}': ..." for key in SOLVE_KEYS) + "}")
    if function == "holdout_check":
        if type(value) is list and all(type(name) is str for name in value):
            return None
        if isinstance(value, dict):
            return ("holdout_check returns a dict, not a list of test names",
                    "return the list result['failed'], not the whole run result")
        hint = "return the names of the failing tests as a list of str"
        if type(value) is int:
            hint = "return the names of the failing tests, not how many there are"
        return f"holdout_check returns {_quoted(value)}, not a list of test names", hint
    return None


def _raised(exc: Raised, called: str, file: str, source: str | None) -> Diagnosis:
    """What the function raised, placed in the innermost step function it passed (a helper belongs to the step that
    called it), except a loop the lab stopped, which is the called function's own."""
    info, hint = exc.info, _RAISED_HINT
    raised, message = info["type"], info["message"]
    owner = next((name for name, _ in reversed(info["frames"]) if name in BY_FUNCTION), called)
    line, code = exc.line, info.get("source") or ""
    if exc.asks_no_model:
        return _asks_no_model(exc, called, owner, file, source)
    if exc.is_a_limit:
        return _in(called, file, "loop limit", f"{called} was stopped in a loop{_at(file, line)}: {message}",
                   f"{called} asks or runs far more than it needs: look at the loop on that line", line,
                   _line_of(source, line) or code)
    if raised == "SystemExit":
        call = "exit()" if info.get("exit") is None else f"exit({info['exit']!r})"
        return _in(owner, file, "exited", f"{called} called {call}{_at(file, line)}", EXIT_HINT, line, code)
    if raised == "NotImplementedError" and info["stub"]:
        if exc.where in BY_FUNCTION and exc.where != called:
            return _stub("calls a stub", called, exc.where, file, line, code)
        hint = f"finish {exc.where or called}: that line still raises NotImplementedError"
    elif raised == "TypeError" and _CALL.match(message):
        return _wrong_parameters(exc, owner, file, source)
    return _in(owner, file, "raised", _raised_words(exc, file, line), hint, line, code)


def _timed_out(outcome: TimedOut, called: str, file: str, source: str | None) -> Diagnosis:
    """A call stopped at its time limit, placed where its code was (the runner's last look, when it had one): the
    loop of the innermost step function it was in, with that step's hint (a loop in extract_code is not solve's)."""
    limit = f" for more than {outcome.limit:g} s" if outcome.limit else " too long"
    counted = counted_words(outcome.counted)  # the runs it asked for that counted as its own time
    limit += f"{counted}," if counted else ""
    owner = next((name for name, _ in reversed(outcome.frames) if name in BY_FUNCTION), called)
    line = outcome.frames[-1][1] if outcome.frames else None
    step = BY_FUNCTION.get(owner)
    inside = f" in {owner}" if owner != called else ""
    return _in(owner, file, "timed out", f"{called} ran{limit} and was stopped{inside}{_at(file, line)}",
               step.hang_hint if step and step.hang_hint else _HANG_HINT, line, _line_of(source, line))


def _asks_no_model(exc: Raised, called: str, owner: str, file: str, source: str | None) -> Diagnosis:
    """A function of a step given no model (1, 5) asked one, itself or through another step's function: the fault
    is the line of its own code that led there, and the step's words say what it does instead."""
    step, line = BY_FUNCTION.get(called), exc.line
    through = f" through {owner}" if owner != called else ""
    where = step.label if step else called
    return _in(called, file, "raised", f"{called} asks a model{through}{_at(file, line)}: {where} has no model to ask",
               step.without_model if step and step.without_model else _NO_MODEL_HINT, line,
               _line_of(source, line) or exc.info.get("source") or "")


def _wrong_parameters(exc: Raised, owner: str, file: str, source: str | None) -> Diagnosis:
    """A call that did not fit a signature. When the signature of a step's function is not the stub's, that `def`
    is the line to fix (the lab calls it as the stub says); otherwise the call that did not fit it."""
    info, named = exc.info, _CALL.match(exc.info["message"]).group(1)
    step = BY_FUNCTION.get(named)
    defined = _parameters(source, named) if step else None
    if step and defined is not None and defined[0] != step.parameters:
        line = defined[1]
        have, want = ", ".join(defined[0]), ", ".join(step.parameters)
        return _in(named, file, "wrong parameters", f"{named} takes ({have}), but the stub takes ({want})"
                   f"{_at(file, line)}: {info['message']}", _PARAMETERS_HINT, line, _line_of(source, line))
    line = exc.line
    return _in(owner, file, "wrong parameters", _raised_words(exc, file, line), _PARAMETERS_HINT, line,
               info.get("source") or "")


def _stub(kind: str, called: str, function: str, file: str, line, code) -> Diagnosis:
    step = BY_FUNCTION.get(function)
    label = step.label if step else function
    if kind == "not started":
        message, hint = f"{function} still raises NotImplementedError{_at(file, line)}", STUB_HINT
    else:
        message = f"{called} calls {label}, which still raises NotImplementedError{_at(file, line)}"
        hint = f"write {label} first: {STUB_HINT}"
    return Diagnosis(kind, message, hint, step.number if step else None, function, file, line, code or "")


def _in(function: str, file: str, kind: str, message: str, hint: str, line=None, code="") -> Diagnosis:
    step = BY_FUNCTION.get(function)
    return Diagnosis(kind, message, hint, step.number if step else None, function, file, line, code or "")


def _raised_words(exc: Raised, file: str, line) -> str:
    """ "solve raised KeyError in _helper (agent.py line 12): 'code'": what, where, then the exception's words."""
    inner = f" in {exc.where}" if exc.where and exc.where != exc.function else ""
    words = f": {exc.info['message']}" if exc.info["message"] else ""
    return f"{exc.function} raised {exc.info['type']}{inner}{_at(file, line)}{words}"


def _at(file: str, line) -> str:
    """Where, as a message says it: the file by its own name (the frame around the message names it in full)."""
    return f" ({PurePath(file).name} line {line})" if line else ""


def _quoted(value) -> str:
    return cut(repr(value), SHOWN)


def _line_of(source: str | None, line) -> str:
    lines = (source or "").splitlines()
    return lines[line - 1].strip() if isinstance(line, int) and 0 < line <= len(lines) else ""


def _parameters(source: str | None, function: str) -> tuple[tuple[str, ...], int] | None:
    """(parameter names, line of the def) of a top-level function in the source, if it is defined there."""
    try:
        tree = syntax.parse(source or "")
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            arguments = node.args
            names = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
            return tuple(names), node.lineno
    return None
