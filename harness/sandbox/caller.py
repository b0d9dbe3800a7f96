"""The caller's side of the sandbox: `run` tests a solution and returns plain data, never an exception."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time

from .. import settings
from ..text import one_line
from ..levels import NAMESPACES, PROCESS, TABLE
from . import wire
from .records import exchange as _exchange
from .results import MAX_TEST_SOURCE, assemble, result, static_names

SERVER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")
MAX_COMPILED_KEPT = 64 << 10  # characters of a test source whose compiled code is kept for the next runs
COMPILED_SOURCES = 32  # test sources whose compiled code is kept (the most recently used)
START_TIMEOUT = 60.0  # seconds the server may take to start on a slow, busy machine


class _Server:
    """One warm sandbox server per process, started on first use."""

    def __init__(self):
        self.lock = threading.Lock()
        self.proc = None
        self.sock = None
        self.owner = None
        self.generation = 0  # which server a run was started on: a run is only finished on its own server
        self.hello = {}
        self.wanted = None

    @property
    def isolation(self):
        return self.hello.get("isolation", PROCESS)

    def ensure(self):
        wanted = settings.get("SPEC2CODE_ISOLATION")
        if self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None:
            if wanted == self.wanted:
                return
            self.stop()
        self.wanted = wanted
        self.start()

    def start(self):
        parent_sock, child_sock = socket.socketpair()
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "SPEC2CODE_ISOLATION": self.wanted,
        }
        if settings.get("SPEC2CODE_SANDBOX_DEBUG"):
            env["SPEC2CODE_SANDBOX_DEBUG"] = "1"
        # The caller's environment (API keys included) stays with the caller. A session of its own keeps Ctrl-C
        # at the caller's terminal away from the server: it ends, cleaning up, when this socket closes.
        self.proc = subprocess.Popen(
            [sys.executable, "-I", SERVER_SCRIPT, str(child_sock.fileno())],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=None if "SPEC2CODE_SANDBOX_DEBUG" in env else subprocess.DEVNULL,
            stderr=None if "SPEC2CODE_SANDBOX_DEBUG" in env else subprocess.DEVNULL,
            pass_fds=(child_sock.fileno(),),
            close_fds=True,
            cwd="/",
            start_new_session=True,
        )
        child_sock.close()
        self.sock, self.owner = parent_sock, os.getpid()
        self.generation += 1
        parent_sock.settimeout(START_TIMEOUT)
        try:
            hello = wire.recv_frame(parent_sock)
            if not isinstance(hello, dict) or not hello.get("ready"):
                raise ValueError("it said something else than ready")
        except (OSError, EOFError, ValueError) as e:
            self.stop()
            raise RuntimeError(f"the sandbox server did not start ({e})") from None
        parent_sock.settimeout(None)
        self.hello = hello

    def stop(self):
        """Close the socket: the server then ends every run and removes its folder by itself. It is given a few
        seconds, and never killed: killing it would leave its folder behind."""
        sock, self.sock = self.sock, None
        if sock is not None:
            sock.close()
        if self.proc is not None and self.owner == os.getpid():
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self.proc = None

    def request(self, message, fds=()):
        sock = self.sock
        if sock is None:
            raise OSError("the sandbox server is not running")
        sock.settimeout(30)
        wire.send_frame(sock, message, fds)
        reply = wire.recv_frame(sock)
        sock.settimeout(None)
        if not isinstance(reply, dict):
            raise ValueError("the sandbox server sent a malformed reply")
        return reply


_SERVER = _Server()
atexit.register(_SERVER.stop)
_stopping = []  # one entry per `stopped` block under way: while there is one, no run starts, nor a server


@contextlib.contextmanager
def stopped():
    """End this process's sandbox server now, and with it every run in progress: each returns at once, as a crash.
    Until the block ends, every run asked for returns so too, and starts no server. For an interrupted grading,
    whose threads wait on the runs their agents asked for, then go on to their checks' next runs while they finish:
    without it, SIGTERM waited for each run to time out, or for a new server to start and serve the rest."""
    _stopping.append(True)
    try:
        _SERVER.stop()
        yield
    finally:
        _stopping.pop()


def isolation_level() -> str:
    """The isolation the sandbox has on this machine: a name of harness/levels.py (see 'The sandbox' in the README)."""
    return _hello().get("isolation", PROCESS)


def isolation_lacks() -> dict:
    """The walls the level in force cannot put up: {wall: the sentence saying so} (empty at the namespaces level)."""
    return dict(_hello().get("lacks") or {})


def isolation_refused() -> str:
    """Why the sandbox runs no code at all on this machine (see walls.Ladder.refused); "" where it runs code."""
    return str(_hello().get("refused") or "")


def isolation_summary() -> str:
    """One line for people: the isolation in force and, where it is weaker, what could not be enforced."""
    hello = _hello()
    level, notes = hello.get("isolation", PROCESS), [str(n) for n in hello.get("notes") or []]
    if level == NAMESPACES:
        via = " through a user namespace" if hello.get("via") == "user namespace" else ""
        return f"{level}{via} ({'; '.join([TABLE[level].student, *notes])})"
    return f"{level} only: {'; '.join(notes)}. See 'The sandbox' in the README."


def _hello() -> dict:
    with _SERVER.lock:
        try:
            _SERVER.ensure()
        except RuntimeError as e:
            return {"isolation": PROCESS, "notes": [str(e)], "refused": str(e)}
        return _SERVER.hello


def run(solution_src: str, test_src: str, *, timeout: float | None = None) -> dict:
    """Run the tests in `test_src` against the solution in `solution_src`, in the sandbox.

    The solution runs in its own process, walled off from this one (see the README for the
    isolation levels); the tests run in another and call the solution's functions by name, e.g.
    `is_leap_year(2024)` or `from solution import is_leap_year`. Tests may use pytest freely.

    Returns a dict (never raises for anything the code under test does):
        passed     number of tests that passed
        failed     names of the tests that did not pass, in the order they are defined; when the tests could
                   not run at all, every test of `test_src`
        total      number of tests
        error      None, or one line saying why the run could not complete, starting with its
                   kind: "syntax error", "import error", "test error", "timeout", "memory",
                   "crash" or "no tests"
        output     failure details (the failing line, the values), cut to a bounded size
        isolation  which walls were in force: namespaces, user or process (see harness/levels.py)

    >>> run("def is_leap_year(y): return y % 4 == 0", "def test_2024(): assert is_leap_year(2024)")["passed"]
    1
    """
    if not isinstance(solution_src, str) or not isinstance(test_src, str):
        raise TypeError("run(solution_src, test_src) takes two strings of Python source")
    if timeout is None:
        timeout = settings.get("SPEC2CODE_TIMEOUT")
    if len(test_src) > MAX_TEST_SOURCE:
        return result(static_names(test_src), {}, f"test error: the tests are {len(test_src):,} characters long; a "
                      f"run takes at most {MAX_TEST_SOURCE:,}", "", _SERVER.isolation)
    try:
        return _run(solution_src, test_src, float(timeout))
    except Exception as e:  # noqa: BLE001 - a failure of the lab's own machinery is a result too, never a raise
        return result(static_names(test_src), {}, f"crash: the sandbox failed ({type(e).__name__}: {e})", "",
                       _SERVER.isolation)


def _run(solution_src, test_src, timeout):
    req_r, req_w = os.pipe()
    res_r, res_w = os.pipe()
    with _SERVER.lock:
        for attempt in (1, 2):  # a server that died since the last run is replaced once
            if _stopping:
                for fd in (req_r, req_w, res_r, res_w):
                    os.close(fd)
                return result(static_names(test_src), {}, "crash: the sandbox was stopped (the grading was "
                              "interrupted)", "", _SERVER.isolation)
            try:
                _SERVER.ensure()
                if _SERVER.hello.get("refused"):  # no code may run here, and the server says why
                    for fd in (req_r, req_w, res_r, res_w):
                        os.close(fd)
                    return result(static_names(test_src), {}, f"crash: {_SERVER.hello['refused']}", "", PROCESS)
                reply = _SERVER.request({"cmd": "run", "timeout": timeout}, fds=(req_r, res_w))
                pid, generation = reply.get("pid"), _SERVER.generation
                # The run's clock starts when its test process has it (the server's clock is this machine's).
                deadline = reply.get("deadline")
                if not isinstance(deadline, (int, float)) or not 0 <= deadline - time.monotonic() <= timeout:
                    deadline = time.monotonic() + timeout
                if pid is None:
                    raise RuntimeError(str(reply.get("error") or "no run was started"))
                break
            except (OSError, EOFError, ValueError, RuntimeError) as e:
                _SERVER.stop()
                if attempt == 2:
                    for fd in (req_r, req_w, res_r, res_w):
                        os.close(fd)
                    return result(static_names(test_src), {}, f"crash: the sandbox could not start a run ({e})",
                                   "", _SERVER.isolation)
        isolation = _SERVER.isolation
    os.close(req_r)
    os.close(res_w)
    try:
        compiled = _COMPILED.get(test_src)
        ask = compiled is None and len(test_src) <= MAX_COMPILED_KEPT
        payload = json.dumps({"solution": solution_src, "tests": test_src, "compiled": compiled, "compile": ask})
        events, timed_out = _exchange(req_w, res_r, payload.encode(), deadline)
        if ask and events and events[0].get("event") == "compiled":  # only the first record is the run's own
            code = events.pop(0).get("code")
            if isinstance(code, str):
                _COMPILED.keep(test_src, code)
    finally:
        os.close(res_r)
        with _SERVER.lock:
            finished = {}
            if _SERVER.generation == generation:  # never ask a newer server to finish a pid it does not know
                try:
                    finished = _SERVER.request({"cmd": "finish", "pid": pid})
                except Exception:  # noqa: BLE001 - a lost server ends its runs itself
                    _SERVER.stop()
    if finished.get("outlived"):  # something of the run lived on after it was killed: no verdict stands on it
        return result(static_names(test_src), {}, f"crash: the sandbox could not end the run: "
                      f"{one_line(finished['outlived'], 300)}", "", isolation)
    return assemble(events, timed_out, timeout, isolation, test_src)


class _Compiled:
    """Test sources compiled as pytest's import would (asserts rewritten), each by the first run that had it.

    A run compiles its tests in its own test process, inside its limits, and sends the code back as its first
    record, before any test code has run there, so no test can change it; the next runs of that source get it ready
    to load. Compiling here instead imported most of pytest into every caller: some 55 ms of CPU a grading."""

    def __init__(self):
        self.lock = threading.Lock()
        self.codes: dict[str, str] = {}  # in the order last used

    def get(self, source: str) -> str | None:
        with self.lock:
            code = self.codes.pop(source, None)
            if code is not None:
                self.codes[source] = code
            return code

    def keep(self, source: str, code: str) -> None:
        with self.lock:
            self.codes.pop(source, None)
            self.codes[source] = code
            while len(self.codes) > COMPILED_SOURCES:
                del self.codes[next(iter(self.codes))]


_COMPILED = _Compiled()
