"""How a call of a learner's function can end without a value: it raised, was still a stub, hung, crashed, or
agent.py did not load. The runner raises these; every surface says them in its own words."""

from __future__ import annotations


class AgentError(Exception):
    """The learner's function did not return a value: it raised, hung, or its process ended."""


class Raised(AgentError):
    """The function raised an exception; `.info` describes it (wire.describe: type, message, line, source, in)."""

    def __init__(self, function: str, info: dict):
        self.function, self.info = function, info
        where = f" (agent.py line {info['line']})" if info.get("line") else ""
        inner = f" in {info['in']}" if info.get("in") and info["in"] != function else ""
        super().__init__(f"{function} raised {info['type']}{inner}: {info['message']}{where}".strip())


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
