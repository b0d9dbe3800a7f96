"""Why agent.py did not load, in words: what its child reported (a syntax error, an exit, an exception at import)."""

from __future__ import annotations

from .outcomes import LoadFailed

EXIT_HINT = "remove the exit() or sys.exit() call: agent.py must only define functions"
LAB_BUG = "this is a problem in the lab, not in your code: please report it to your instructor"


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
