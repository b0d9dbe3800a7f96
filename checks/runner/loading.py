"""Why agent.py did not load, in words: a file the lab will not read, or what its child reported (a syntax error,
an exit, an exception at import)."""

from __future__ import annotations

from pathlib import Path

from harness.errors import NotPythonSource
from harness.files import read_source

from .outcomes import LoadFailed

MAX_AGENT_BYTES = 1 << 20  # an agent file larger than this is refused before anything reads it
EXIT_HINT = "remove the exit() or sys.exit() call: agent.py must only define functions"
LAB_BUG = "this is a problem in the lab, not in your code: please report it to your instructor"


def read(path: Path) -> str:
    """The agent file's source, read here before its child starts; LoadFailed if it is missing, too large or not
    Python source."""
    if not path.is_file():
        raise LoadFailed(f"There is no agent file at {path}.", "check the path given to --agent.")
    size = path.stat().st_size
    if size > MAX_AGENT_BYTES:
        raise LoadFailed(f"{path.name} is {size / 2**20:.1f} MB; the lab reads agent files up to "
                         f"{MAX_AGENT_BYTES >> 20} MB.", "hand in only the agent's code: five functions and their helpers")
    try:
        return read_source(path)
    except NotPythonSource as exc:
        raise LoadFailed(str(exc), "save agent.py as plain Python source (UTF-8), then hand it in again") from None
    except OSError as exc:
        raise LoadFailed(f"{path.name} cannot be read: {exc.strerror or exc}.", "check the file's permissions") from None


def failed(name: str, info: dict) -> LoadFailed:
    """The LoadFailed for agent file `name`, from the child's report of what stopped its import (wire.info)."""
    at = f" on line {info['line']}" if info["line"] else ""
    if info["type"] in ("SyntaxError", "IndentationError", "TabError"):
        return LoadFailed(
            f"{name} has a syntax error{at}: {info['message']}",
            "fix that line (look just before it too: an unclosed bracket or quote shows up on the next line)",
            info=info,
        )
    if info["type"] == "SystemExit":
        return LoadFailed(f"{name} called {exit_call(info)} while loading{at}.", EXIT_HINT, info=info)
    if info["type"] == "NotPythonSource":
        return LoadFailed(info["message"], "save agent.py as plain Python source (UTF-8), then hand it in again")
    return LoadFailed(
        f"{name} raised {info['type']}{at} while loading: {info['message']}",
        "code at the top level of agent.py runs on import: check that line",
        info=info,
    )


def exit_call(info: dict) -> str:
    code = info.get("exit")
    return "exit()" if code is None else f"exit({code!r})"
