"""How a call of a learner's function can end without a value: it raised, was still a stub, hung, crashed, or
agent.py did not load. The runner raises these as data; checks/diagnosis.py says what each means, once. And
CannotStart, which is no outcome of an agent: no agent's process can start on this machine."""

from __future__ import annotations

from harness.errors import LabError


class AgentError(Exception):
    """The learner's function did not return a value: it raised, hung, or its process ended."""


# What the lab itself raises in an agent's process when a call asks or runs too often: the fault is in the loop of
# the step's own function, not at the line of the ask or run it happened to reach.
LIMITS = ("ask was called more than", "harness.run was called more than")
# What it raises when a function with no model to ask (steps 1 and 5) asks one: the fault is the line of that
# function's own code that led there, not the ask in a helper (write_tests) it called.
NO_MODEL = "harness.ask is not part of this step"


class Raised(AgentError):
    """The function raised an exception; `.info` describes it (wire.describe: type, message, line, source, in,
    frames). `.line` is where to look, in the function `.where`: the line that raised, or, for the lab's own limits,
    the line in the called function's own code."""

    def __init__(self, function: str, info: dict):
        self.function, self.info = function, info
        self.line, self.where = info.get("line"), info.get("in")
        if self.is_a_limit or self.asks_no_model:
            own = [line for name, line in info.get("frames", []) if name == function]
            self.line, self.where = (own[-1] if own else self.line), function
        inner = f" in {self.where}" if self.where and self.where != function else ""
        super().__init__(f"{function} raised {info['type']}{inner}: {info['message']}".strip())

    @property
    def is_a_limit(self) -> bool:
        """The lab stopped the call: it asked or ran far more than the step needs (a loop that does not end)."""
        return self.info.get("message", "").startswith(LIMITS)


    @property
    def asks_no_model(self) -> bool:
        """The function asked a model in a step that has none (the lab refused the ask)."""
        return self.info.get("message", "").startswith(NO_MODEL)


class NotStarted(AgentError):
    """The function is still the stub: it raised NotImplementedError itself (`.info` as for Raised, if known)."""

    def __init__(self, message: str, info: dict | None = None):
        super().__init__(message)
        self.info = info or {}


def counted_words(counted: float) -> str:
    """What a timeout says of the run time that counted as the call's own: ", counting N s of the runs it asked
    for" (nothing under half a second)."""
    return f", counting {counted:.0f} s of the runs it asked for" if counted >= 0.5 else ""


class TimedOut(AgentError):
    """The function took longer than its time limit (`.limit`, in seconds, when known); its process was stopped.
    `.frames`: where in agent.py its code was, outermost first ([(function, line)], empty when not known).
    `.counted`: seconds of the runs it asked for that counted as its own time (past the runner's allowance)."""

    def __init__(self, message: str = "", limit: float | None = None, frames=(), counted: float = 0.0):
        super().__init__(message)
        self.limit, self.frames, self.counted = limit, list(frames), counted


class Crashed(AgentError):
    """The child process ended or broke the protocol while the function ran; `.exit_code` when it exited."""

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(message)
        self.exit_code = exit_code


class LoadFailed(AgentError):
    """agent.py could not be loaded: a syntax error, an exception or an exit at import, a missing file.

    `.info` describes the exception when agent.py raised one (wire.describe), `.exit_code` when its process ended.
    """

    def __init__(self, message: str, hint: str, *, info: dict | None = None, exit_code: int | None = None):
        super().__init__(message)
        self.hint, self.info, self.exit_code = hint, info or {}, exit_code


class CannotStart(LabError):
    """No agent's process can start on this machine: its interpreter does not load for the user the agent runs as.
    The fault is the grading machine's, not a submission's, so grading stops instead of scoring anyone."""

    exit_status = 3  # `spec2code grade` exits with it; the Gradescope zip's run_autograder then writes no score

    def __init__(self, python: str):
        super().__init__(
            f"the agent's process cannot start here: {python} exits with status 127 for the user the agent runs as, "
            "before any agent is read (the system's loader cannot load it). Nothing was graded: install the lab "
            "with a Python every user may read and run (such as the system's /usr/bin/python3), or open this one's "
            "folders to them (chmod -R a+rX)")
