"""The "try it" cell: call one of the agent's functions in a time-limited child process and show what it gave."""

from __future__ import annotations

import html
import os
import pickle
import pprint
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import settings

from .displays import COLOURS, code_spans, cut

TRY_TIMES = 3  # a "try it" call may take this many times the step's own time limit (a real model is slower) ...
TRY_MINIMUM = 10.0  # ... and never less than this many seconds, before it is stopped
CHILD = str(Path(__file__).resolve().with_name("try_child.py"))  # the script the child process runs


def try_function(function: str, *args, agent_path=None, timeout: float | None = None, model=None, **kwargs):
    """Load the agent fresh from disk, call one of its functions, and show what it returned (or what went wrong).

    The call runs in a child process with a time limit, so a hang is stopped and nothing leaks into this kernel.
    A function that takes `ask` and is not given one is handed the lab's model, and the calls it makes are shown.
    `model` picks the scripted model for this call ("offline" or "gaming"; default: as SPEC2CODE_MODEL says).
    `timeout` defaults to a few times the step's own time limit (10 s for steps 1-3, 30 s for steps 4-5).
    """
    path = settings.agent_path(agent_path)
    timeout = _try_timeout(function) if timeout is None else timeout
    env = dict(os.environ)
    if model is not None:
        env["SPEC2CODE_MODEL"] = model
    payload = {"path": str(path), "shown": settings.shown(path), "function": function, "args": args,
               "kwargs": kwargs}
    try:
        pickle.dumps(payload)
    except Exception as exc:
        problem = f"The arguments cannot be sent to the child process ({exc}); use plain data."
        return Tried(function, path, problem=problem)
    return _call_in_child(payload, env, timeout, path)


def _try_timeout(function: str) -> float:
    try:
        import checks

        limit = checks.step(function).time_limit
    except Exception:  # not one of the five steps: a helper of the learner's own
        limit = 0.0
    return max(TRY_MINIMUM, TRY_TIMES * limit)


def _call_in_child(payload: dict, env: dict, timeout: float, path: Path) -> "Tried":
    function = payload["function"]
    with tempfile.TemporaryDirectory(prefix="spec2code-try-") as tmp:
        payload["out"] = os.path.join(tmp, "result.pickle")
        # The child runs the agent's code: untrusted, so it gets its own process group and a time limit.
        child = subprocess.Popen(
            [sys.executable, CHILD, "--child"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            cwd=settings.PROJECT_ROOT, env=env, start_new_session=True,
        )
        try:
            printed, _ = child.communicate(pickle.dumps(payload), timeout=timeout)
        except KeyboardInterrupt:  # the learner pressed stop: stop the child too
            _kill(child)
            raise
        except subprocess.TimeoutExpired:
            _kill(child)
            return Tried(function, path, problem=(
                f"`{function}` did not finish within {timeout:g} s, so it was stopped. Look for a loop that "
                "never ends (does it stop after max_iters attempts?) or a call that waits forever."
            ))
        printed = printed.decode("utf-8", "replace")
        try:
            with open(payload["out"], "rb") as f:
                outcome = pickle.load(f)
        except (OSError, EOFError, pickle.UnpicklingError):
            return Tried(function, path, printed=printed, problem=(
                f"The child process running `{function}` stopped without a result (exit code {child.returncode}). "
                "Does your code call exit() or crash the interpreter?"
            ))
    return Tried(function, path, printed=printed, **outcome)


def _kill(child: subprocess.Popen) -> None:
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        child.kill()
    child.communicate()


class Tried:
    """What one "try it" call gave: a value, or a problem in words, plus the model calls made and anything printed."""

    def __init__(self, function, path, *, value=None, problem="", asks=(), printed="", shown_value=None):
        self.function, self.path, self.value, self.problem = function, path, value, problem
        self.asks, self.printed = list(asks), printed
        self._shown_value = shown_value

    @property
    def ok(self) -> bool:
        return not self.problem

    def _value_text(self) -> str:
        if self._shown_value is not None:
            return self._shown_value
        if isinstance(self.value, str) and "\n" in self.value:
            return self.value
        return pprint.pformat(self.value, width=100, sort_dicts=False)

    def __repr__(self) -> str:
        lines = []
        for i, (prompt, reply) in enumerate(self.asks, 1):
            lines += [f"--- ask #{i}: the prompt ---", cut(prompt, 800)]
            lines += [f"--- ask #{i}: the reply ---", cut(reply, 800)]
        if self.printed.strip():
            lines += ["--- printed ---", cut(self.printed.rstrip())]
        if self.ok:
            lines += [f"{self.function} returned:", cut(self._value_text())]
        else:
            lines.append(self.problem)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        esc = html.escape
        pre = 'style="margin: 2px 0 8px; padding: 4px 8px; background: #f6f8fa; white-space: pre-wrap"'
        parts = [f'<div class="spec2code-try" data-ok="{str(self.ok).lower()}" style="font-family: sans-serif">']
        for i, (prompt, reply) in enumerate(self.asks, 1):
            parts.append(
                f"<details><summary>ask #{i}: the prompt your code sent, and the model's reply</summary>"
                f"<div>Prompt:</div><pre {pre}>{esc(cut(prompt, 3000))}</pre>"
                f"<div>Reply:</div><pre {pre}>{esc(cut(reply, 3000))}</pre></details>"
            )
        if self.printed.strip():
            parts.append(f"<div>Printed:</div><pre {pre}>{esc(cut(self.printed.rstrip()))}</pre>")
        if self.ok:
            parts.append(f"<div><code>{esc(self.function)}</code> returned:</div>")
            parts.append(f"<pre {pre}>{esc(cut(self._value_text()))}</pre>")
        else:
            colour = COLOURS["not started"] if "not started" in self.problem else COLOURS["failed"]
            parts.append(
                f'<div style="border-left: 6px solid {colour}; padding: 4px 10px">{code_spans(self.problem)}</div>'
            )
        parts.append("</div>")
        return "".join(parts)
