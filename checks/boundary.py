"""The grader's side of the process boundary: the learner's agent.py runs in a child, the checks talk to it here.

A check calls `agent.call("extract_code", reply)`; the child runs the function and sends back the returned value
as plain data. When the function asks a model or runs tests, the request comes here: a `ScriptedAsk` given as an
argument answers (and records) the prompts, and runs go to `harness.run` in this process. So the checks judge
only the prompts they were sent and the values they got back, never what the child says about itself.
"""

from __future__ import annotations

import copy
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from harness.settings import PROJECT_ROOT as ROOT

CHILD = Path(__file__).resolve().parent / "child.py"
WALLS = Path(__file__).resolve().parent / "child_walls.py"  # puts up the walls, then becomes the child
LOAD_LIMIT = 10.0  # seconds agent.py may take to import
MAX_MESSAGE = 16 * 2**20  # bytes the grader reads in one message from the child
MAX_RUN_TIMEOUT = 10.0  # seconds: the most a run asked for by the agent may take


class AgentError(Exception):
    """The learner's function did not return a value: it raised, hung, or its process ended."""


class Raised(AgentError):
    """The function raised an exception (details in `.info`: type, message, line, in, stub)."""

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
    """The child process ended or broke the protocol while the function ran."""


class LoadFailed(AgentError):
    """agent.py could not be loaded: a syntax error, an exception or an exit at import, a missing file."""

    def __init__(self, message: str, hint: str):
        self.hint = hint
        super().__init__(message)


class Opaque:
    """A returned value that is not plain data, known only by its type's name."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"


class ScriptedAsk:
    """A stand-in model for one check: answers each prompt from a script and remembers every call.

    `replies` is a list (the last one repeats), or a function prompt -> reply. Calls the agent makes through the
    `ask` it was given are `given`; calls to `harness.ask` itself are `default` (answered the same way).
    `runs`, if given, is a function (solution, tests) -> run result that answers the agent's calls to
    `harness.run` in this check instead of the sandbox, to put the agent in a case the sandbox rarely makes.
    """

    LIMIT = 50  # calls; after that the agent is told it is looping

    def __init__(self, replies, *, runs=None):
        self._replies = replies
        self.runs = runs
        self.calls: list[tuple[str, object]] = []  # (via, prompt) in order

    def __call__(self, prompt, via: str = "given") -> str:
        self.calls.append((via, prompt))
        if len(self.calls) > self.LIMIT:
            raise RuntimeError(f"ask was called more than {self.LIMIT} times in one check: is it in a loop?")
        if callable(self._replies):
            return self._replies(prompt)
        return self._replies[min(len(self.calls), len(self._replies)) - 1]

    @property
    def given(self) -> list:
        return [prompt for via, prompt in self.calls if via == "given"]

    @property
    def default(self) -> list:
        return [prompt for via, prompt in self.calls if via == "default"]


class Agent:
    """One agent.py, loaded in a child process that is started on first use and restarted after a hang or crash."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.functions: list[str] = []
        self._proc = None
        self._next_id = 0
        self._buffer = bytearray()
        self._load_error: LoadFailed | None = None
        self.source = None

    # --- life of the child -------------------------------------------------------------------------------

    def load(self) -> None:
        """Start the child and load agent.py in it; raise LoadFailed if it cannot be loaded."""
        if self._load_error is not None:
            raise self._load_error
        if self._proc is not None:
            return
        try:
            self._start()
        except LoadFailed as exc:
            self._load_error = exc
            raise

    def _start(self) -> None:
        if not self.path.is_file():
            raise LoadFailed(f"There is no agent file at {self.path}.", "check the path given to --agent.")
        self.source = self.path.read_text(encoding="utf-8", errors="replace")
        try:
            compile(self.source, str(self.path), "exec", dont_inherit=True)
        except SyntaxError as exc:
            raise LoadFailed(
                f"{self.path.name} has a syntax error on line {exc.lineno}: {exc.msg}",
                "fix that line (look just before it too: an unclosed bracket or quote shows up on the next line)",
            ) from None
        request_read, self._request = os.pipe()
        self._reply, reply_write = os.pipe()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPEC2CODE_", "PYTHON"))}
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", str(WALLS), str(self.path), "--",
                 sys.executable, "-I", str(CHILD), str(ROOT), str(self.path), str(request_read), str(reply_write)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(request_read, reply_write),
                start_new_session=True,  # its own process group, so a stop ends whatever it started
                cwd=ROOT,
                env=env,
            )
        finally:
            os.close(request_read)
            os.close(reply_write)
        self._buffer.clear()
        try:
            message = self._receive(time.monotonic() + LOAD_LIMIT)
        except TimedOut:
            self.stop()
            raise LoadFailed(
                f"agent.py took more than {LOAD_LIMIT:g} s to load.",
                "code at the top level of agent.py runs on import: move work into the functions",
            ) from None
        except Crashed as exc:
            self.stop()
            raise LoadFailed(f"agent.py ended its process while loading ({exc}).", _EXIT_HINT) from None
        if "ready" in message and isinstance(message["ready"], list):
            self.functions = [name for name in message["ready"] if isinstance(name, str)]
            return
        self.stop()
        info = message.get("load_failed") if isinstance(message.get("load_failed"), dict) else {}
        kind, text, line = info.get("type", "an error"), info.get("message", ""), info.get("line")
        at = f" on line {line}" if line else ""
        if kind == "SystemExit":
            raise LoadFailed(f"agent.py called {text} while loading{at}.", _EXIT_HINT)
        raise LoadFailed(
            f"agent.py raised {kind}{at} while loading: {text}",
            "code at the top level of agent.py runs on import: check that line",
        )

    def stop(self) -> None:
        """Stop the child (and anything it started) if it is running."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for fd in (self._request, self._reply):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # --- calls -------------------------------------------------------------------------------------------

    def call(self, function: str, *args, time_limit: float = 3.0, **kwargs):
        """Run `function(*args, **kwargs)` in the child and return its value as plain data.

        A ScriptedAsk among the arguments becomes the `ask` the function receives. Raises Raised, NotStarted,
        TimedOut or Crashed (after which the next call starts a fresh child), or LoadFailed.
        """
        self.load()
        asks: list[ScriptedAsk] = []
        self._next_id += 1
        request = {
            "id": self._next_id,
            "call": function,
            "args": [_encode(a, asks) for a in args],
            "kwargs": {k: _encode(v, asks) for k, v in kwargs.items()},
        }
        deadline = time.monotonic() + time_limit
        try:
            self._send(request)
            while True:
                message = self._receive(deadline)
                if message.get("id") != self._next_id:
                    raise Crashed("agent.py wrote to the grader's channel")
                if "return" in message:
                    return _decode(message["return"])
                if "raised" in message:
                    info = _info(message["raised"])
                    if info["stub"] and info["type"] == "NotImplementedError":
                        raise NotStarted(f"{function} still raises NotImplementedError")
                    raise Raised(function, info)
                started = time.monotonic()
                if "ask" in message:
                    self._send(self._answer_ask(message, asks))
                elif "run" in message:
                    self._send(_answer_run(message, next((a.runs for a in asks if a.runs), run_tests)))
                else:
                    raise Crashed("agent.py wrote to the grader's channel")
                deadline += time.monotonic() - started  # time spent here is not the agent's
        except TimedOut:
            self.stop()
            raise TimedOut(f"{function} took more than {time_limit:g} s (did it loop forever?)") from None
        except Crashed:
            self.stop()
            raise
        except OSError as exc:  # the child closed its end
            self.stop()
            raise Crashed(f"agent.py's process stopped talking ({exc.strerror})") from None

    def _answer_ask(self, message: dict, asks: list[ScriptedAsk]) -> dict:
        handle, via = message.get("handle"), message.get("via")
        if via == "given" and isinstance(handle, int) and 0 <= handle < len(asks):
            model = asks[handle]
        elif via == "default" and asks:
            model = asks[0]
        else:
            return {"id": self._next_id, "error": "harness.ask is not part of this step: no model to ask here"}
        try:
            reply = model(_decode(message["ask"]), via="given" if via == "given" else "default")
        except RuntimeError as exc:
            return {"id": self._next_id, "error": str(exc)}
        return {"id": self._next_id, "reply": reply}

    # --- the pipes ---------------------------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        data = json.dumps(message).encode() + b"\n"
        view = memoryview(data)
        while view:
            written = os.write(self._request, view)
            view = view[written:]

    def _receive(self, deadline: float) -> dict:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):
                    raise Crashed("agent.py wrote to the grader's channel") from None
                if not isinstance(message, dict):
                    raise Crashed("agent.py wrote to the grader's channel")
                return message
            if len(self._buffer) > MAX_MESSAGE:
                raise Crashed(f"agent.py sent more than {MAX_MESSAGE // 2**20} MB at once")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimedOut()
            ready, _, _ = select.select([self._reply], [], [], remaining)
            if ready:
                chunk = os.read(self._reply, 1 << 16)
                if not chunk:
                    raise Crashed(_ended(self._proc))
                self._buffer += chunk


_EXIT_HINT = "remove the exit() or sys.exit() call: agent.py must only define functions"


def _ended(proc) -> str:
    try:
        code = proc.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        return "agent.py's process closed the grader's channel"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"agent.py's process was killed by {name}"
    return f"agent.py's process exited with code {code}"


def _info(raw) -> dict:
    raw = raw if isinstance(raw, dict) else {}
    line = raw.get("line")
    return {
        "type": str(raw.get("type", "an exception"))[:100],
        "message": str(raw.get("message", ""))[:2000],
        "line": line if isinstance(line, int) and not isinstance(line, bool) else None,
        "in": str(raw["in"])[:100] if raw.get("in") else None,
        "stub": raw.get("stub") is True,
    }


def _encode(value, asks: list):
    if isinstance(value, ScriptedAsk):
        asks.append(value)
        return {"$ask": len(asks) - 1}
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v, asks) for v in value]}
    if isinstance(value, list):
        return [_encode(v, asks) for v in value]
    if isinstance(value, dict):
        return {"$dict": {k: _encode(v, asks) for k, v in value.items()}}
    return value


def _decode(value):
    """Plain data back from the child: tagged tuples and dicts restored, anything else an Opaque."""
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if isinstance(value.get("$dict"), dict):
            return {k: _decode(v) for k, v in value["$dict"].items()}
        if isinstance(value.get("$tuple"), list):
            return tuple(_decode(v) for v in value["$tuple"])
        if "$float" in value:
            return float(value["$float"]) if value["$float"] in ("nan", "inf", "-inf") else Opaque("float")
        return Opaque(str(value.get("$type", "unknown value"))[:100])
    return value


# --- harness.run, served and remembered in this process -------------------------------------------------

_runs: dict = {}  # (solution, tests, timeout) -> Future of the run's result
_runs_lock = threading.Lock()
_RUNS_KEPT = 512


def run_tests(solution_src: str, test_src: str, timeout=None) -> dict:
    """`harness.run` in the grader's process, remembered: the same code and tests always give the same result.

    Different runs may go on at once (the sandbox allows it); the same run asked for twice is made once.
    """
    import harness

    key = (solution_src, test_src, timeout)
    with _runs_lock:
        future, mine = _runs.get(key), False
        if future is None:
            future, mine = Future(), True
            if len(_runs) >= _RUNS_KEPT:
                _runs.pop(next(iter(_runs)))
            _runs[key] = future
    if mine:
        try:
            options = {} if timeout is None else {"timeout": timeout}
            future.set_result(harness.run(solution_src, test_src, **options))
        except BaseException as exc:
            with _runs_lock:
                _runs.pop(key, None)
            future.set_exception(exc)
    return copy.deepcopy(future.result())


def _answer_run(message: dict, runs) -> dict:
    args, timeout = message.get("run"), message.get("timeout")
    if not (isinstance(args, list) and len(args) == 2 and all(isinstance(a, str) for a in args)):
        return {"id": message.get("id"), "error": "harness.run(solution_src, test_src) takes two strings"}
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            return {"id": message.get("id"), "error": "harness.run's timeout must be a positive number of seconds"}
        timeout = min(float(timeout), MAX_RUN_TIMEOUT)
    try:
        result = run_tests(args[0], args[1], timeout) if runs is run_tests else runs(args[0], args[1])
        return {"id": message.get("id"), "result": result}
    except Exception as exc:  # the lab's own sandbox failed: the agent sees an error, the grader keeps going
        return {"id": message.get("id"), "error": f"harness.run failed: {exc}"}
