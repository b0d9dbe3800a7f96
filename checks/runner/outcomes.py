"""How a call of a learner's function can end without a value: it raised, was still a stub, hung, crashed, or
agent.py did not load. The runner raises these; every surface says them in its own words."""

from __future__ import annotations


class AgentError(Exception):
    """The learner's function did not return a value: it raised, hung, or its process ended."""


# What the lab itself raises in an agent's process when a call asks or runs too often: the fault is in the loop of
# the step's own function, not at the line of the ask or run it happened to reach.
LIMITS = ("ask was called more than", "harness.run was called more than")


class Raised(AgentError):
    """The function raised an exception; `.info` describes it (wire.describe: type, message, line, source, in,
    frames). `.line` is where to look: the line that raised, or, for the lab's own limits, the line in the step's
    own function."""

    def __init__(self, function: str, info: dict):
        self.function, self.info = function, info
        self.line, inner = info.get("line"), info.get("in")
        if info.get("message", "").startswith(LIMITS):
            own = [line for name, line in info.get("frames", []) if name == function]
            self.line, inner = (own[-1] if own else self.line), function
        where = f" (agent.py line {self.line})" if self.line else ""
        inner = f" in {inner}" if inner and inner != function else ""
        super().__init__(f"{function} raised {info['type']}{inner}: {info['message']}{where}".strip())

    @property
    def is_a_limit(self) -> bool:
        """The lab stopped the call: it asked or ran far more than the step needs (a loop that does not end)."""
        return self.info.get("message", "").startswith(LIMITS)


class NotStarted(AgentError):
    """The function is still the stub: it raised NotImplementedError itself."""


class TimedOut(AgentError):
    """The function took longer than its time limit; its process was stopped."""


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
