"""The caller's side of the sandbox: `run` tests a solution and returns plain data, never an exception."""

from __future__ import annotations

import ast
import atexit
import base64
import functools
import json
import marshal
import os
import select
import socket
import subprocess
import sys
import threading
import time

from .. import settings
from ..text import cut
from . import wire

SERVER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")
MAX_OUTPUT = 8000  # characters of failure details returned, so a result stays small
MAX_RECORDS = 4 << 20  # bytes of records read from one run before the rest is ignored
START_TIMEOUT = 60.0  # seconds the server may take to start on a slow, busy machine


class _Server:
    """One warm sandbox server per process, started on first use."""

    def __init__(self):
        self.lock = threading.Lock()
        self.proc = None
        self.sock = None
        self.owner = None
        self.isolation = None
        self.wanted = None
        self.notes = []

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
        # The caller's environment (API keys included) stays with the caller.
        self.proc = subprocess.Popen(
            [sys.executable, "-I", SERVER_SCRIPT, str(child_sock.fileno())],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=None if "SPEC2CODE_SANDBOX_DEBUG" in env else subprocess.DEVNULL,
            stderr=None if "SPEC2CODE_SANDBOX_DEBUG" in env else subprocess.DEVNULL,
            pass_fds=(child_sock.fileno(),),
            close_fds=True,
            cwd="/",
        )
        child_sock.close()
        self.sock, self.owner = parent_sock, os.getpid()
        parent_sock.settimeout(START_TIMEOUT)
        try:
            hello = wire.recv_frame(parent_sock)
        except (OSError, EOFError, ValueError) as e:
            self.stop()
            raise RuntimeError(f"the sandbox server did not start ({e})") from None
        parent_sock.settimeout(None)
        self.isolation = hello.get("isolation", "process")
        self.notes = hello.get("notes", [])

    def stop(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.proc is not None and self.owner == os.getpid():
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None

    def request(self, message, fds=()):
        self.sock.settimeout(30)
        wire.send_frame(self.sock, message, fds)
        reply = wire.recv_frame(self.sock)
        self.sock.settimeout(None)
        return reply


_SERVER = _Server()
atexit.register(_SERVER.stop)


def isolation_level() -> str:
    """The isolation the sandbox has on this machine: "namespaces" or "process" (see the README)."""
    with _SERVER.lock:
        _SERVER.ensure()
        return _SERVER.isolation


def isolation_summary() -> str:
    """One line for people: the isolation in force and, where it is weaker, what could not be enforced."""
    with _SERVER.lock:
        _SERVER.ensure()
        level, notes = _SERVER.isolation, _SERVER.notes
    if level == "namespaces":
        return "namespaces (the solution runs as nobody, with no network and only the Python runtime in view)"
    return f"{level} only: {'; '.join(notes)}. See 'The sandbox' in the README."


def run(solution_src: str, test_src: str, *, timeout: float | None = None) -> dict:
    """Run the tests in `test_src` against the solution in `solution_src`, in the sandbox.

    The solution runs in its own process, walled off from this one (see the README for the
    isolation levels); the tests run in another and call the solution's functions by name, e.g.
    `is_leap_year(2024)` or `from solution import is_leap_year`. Tests may use pytest freely.

    Returns a dict (never raises for anything the code under test does):
        passed     number of tests that passed
        failed     names of the tests that did not pass, in the order they are defined
        total      number of tests
        error      None, or one line saying why the run could not complete, starting with its
                   kind: "syntax error", "import error", "test error", "timeout", "memory",
                   "crash" or "no tests"
        output     failure details (the failing line, the values), cut to a bounded size
        isolation  "namespaces" or "process": which walls were in force

    >>> run("def is_leap_year(y): return y % 4 == 0", "def test_2024(): assert is_leap_year(2024)")["passed"]
    1
    """
    if not isinstance(solution_src, str) or not isinstance(test_src, str):
        raise TypeError("run(solution_src, test_src) takes two strings of Python source")
    if timeout is None:
        timeout = settings.get("SPEC2CODE_TIMEOUT")
    started = time.monotonic()
    deadline = started + timeout
    req_r, req_w = os.pipe()
    res_r, res_w = os.pipe()
    with _SERVER.lock:
        for attempt in (1, 2):  # a server that died since the last run is replaced once
            try:
                _SERVER.ensure()
                pid = _SERVER.request({"cmd": "run", "timeout": timeout}, fds=(req_r, res_w))["pid"]
                break
            except (OSError, EOFError, ValueError, RuntimeError) as e:
                _SERVER.stop()
                if attempt == 2:
                    for fd in (req_r, req_w, res_r, res_w):
                        os.close(fd)
                    return _result([], {}, f"crash: the sandbox could not start a run ({e})", "", "unknown")
        isolation = _SERVER.isolation
    os.close(req_r)
    os.close(res_w)
    try:
        compiled = _compile_tests(test_src)
        payload = json.dumps({"solution": solution_src, "tests": test_src, "compiled": compiled}).encode()
        events, timed_out = _exchange(req_w, res_r, payload, deadline)
    finally:
        os.close(res_r)
        with _SERVER.lock:
            try:
                _SERVER.request({"cmd": "finish", "pid": pid})
            except (OSError, EOFError, ValueError):
                _SERVER.stop()
    return _assemble(events, timed_out, timeout, isolation)


@functools.lru_cache(maxsize=32)
def _compile_tests(test_src: str) -> str | None:
    """pytest's assertion rewriting, done once per test source here instead of in every run."""
    try:
        from _pytest.assertion.rewrite import rewrite_asserts

        tree = ast.parse(test_src, "test_solution.py")
        rewrite_asserts(tree, test_src.encode(), "test_solution.py", None)
        code = compile(tree, "test_solution.py", "exec", dont_inherit=True)
        return base64.b64encode(marshal.dumps(code)).decode()
    except Exception:  # noqa: BLE001 - the run compiles it itself and reports the problem properly
        return None


def _exchange(req_w, res_r, payload, deadline):
    """Send the sources, then collect the run's records until it ends or the deadline passes."""
    events, buf, received = [], b"", 0
    sent, writing = 0, True
    os.set_blocking(req_w, False)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if writing:
                os.close(req_w)
            return events, True
        ready_r, ready_w, _ = select.select([res_r], [req_w] if writing else [], [], remaining)
        if ready_w:
            try:
                sent += os.write(req_w, payload[sent : sent + (1 << 16)])
            except (BrokenPipeError, BlockingIOError):
                sent = len(payload)
            if sent >= len(payload):
                os.close(req_w)
                writing = False
        if ready_r:
            chunk = os.read(res_r, 1 << 16)
            if not chunk:
                if writing:
                    os.close(req_w)
                return events, False
            received += len(chunk)
            if received > MAX_RECORDS:
                continue
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass


def _assemble(events, timed_out, timeout, isolation):
    names, outcomes, details, error, printed, done = [], {}, {}, None, "", False
    for event in events:
        kind = event.get("event")
        if kind == "collected":
            names = [str(n) for n in event.get("names", [])]
        elif kind == "test":
            outcomes[event["name"]] = event.get("outcome")
            if event.get("details"):
                details[event["name"]] = str(event["details"])
        elif kind == "error" and error is None:
            error = f"{event.get('kind', 'crash')}: {event.get('message', '')}".strip()
            if event.get("details"):
                details["(loading the tests)"] = str(event["details"])
        elif kind == "printed":
            printed = str(event.get("text", ""))
            if event.get("cut"):
                printed += f"\n[... {event['cut']} more bytes printed, cut]"
        elif kind == "done":
            done = True
    if timed_out:
        error = f"timeout: the run did not finish within {timeout:g} s (does the solution loop forever?)"
    elif not done and error is None:
        error = "crash: the test process stopped before reporting all results"
    output = "\n\n".join(f"{name}:\n{text.strip()}" for name, text in details.items())
    if printed:
        output += ("\n\n" if output else "") + "The solution printed:\n" + printed
    return _result(names, outcomes, error, output, isolation)


def _result(names, outcomes, error, output, isolation):
    passed = [n for n in names if outcomes.get(n) == "passed"] if error is None or not error.startswith(("syntax", "import")) else []
    failed = [n for n in names if n not in passed]
    output = cut(output, MAX_OUTPUT)
    return {
        "passed": len(passed),
        "failed": failed,
        "total": len(names),
        "error": error,
        "output": output,
        "isolation": isolation,
    }
