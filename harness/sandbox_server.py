"""The sandbox server: a warm pytest process that forks a test process and a solution process per run.

Started by `harness.sandbox` as `python -I sandbox_server.py`. It never imports the `harness` package, so
nothing in its memory, and nothing forked from it, knows the held-out tests.

Per run:
    server (pytest configured once, no network)
      └─ test process T: collects and runs the tests with pytest; reports each result to the caller
           over a pipe the caller opened; sees the solution only through proxy functions
           └─ keeper K: waits for S; its death takes S down
                └─ solution process S: runs the model's code, as nobody, in its own PID and mount
                     namespace (only the Python runtime visible), answering calls with plain values
S is forked before T reads the test source, so expected values never enter the solution's process.
"""

from __future__ import annotations

import builtins
import importlib.util
import json
import os
import resource
import select
import signal
import socket
import struct
import sys
import time
import types

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("_spec2code_isolation", os.path.join(_HERE, "isolation.py"))
isolation = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(isolation)

import pytest  # noqa: E402  (imported once here, so every run starts warm)

MAX_FRAME = 1 << 20  # largest value a solution may return, in bytes of JSON
MAX_DETAILS = 2000  # characters of failure details kept per test
MAX_SOLUTION_OUTPUT = 2000  # characters of the solution's own printing kept
EXTRA_MEMORY = 512 << 20  # address space a solution may add to what the warm process maps
TEST_EXTRA_MEMORY = 1 << 30  # the same for the tests, which also hold pytest's reports
SOLUTION_PROCESSES = 256  # tasks (processes and threads) the sandbox user may have at once

PYTEST_ARGS = [
    "-q", "--tb=short", "--capture=sys", "-p", "no:cacheprovider", "-p", "no:stepwise",
    "-p", "no:pastebin", "-p", "no:junitxml", "-p", "no:doctest", "-p", "no:legacypath",
    "-p", "no:logging", "-p", "no:faulthandler", "-p", "no:unraisableexception", "-p", "no:threadexception",
    "-p", "no:warnings", "-p", "no:setuponly", "-p", "no:setupplan",
    "-W", "ignore", "-o", "console_output_style=classic",
]  # fmt: skip


# ----------------------------------------------------------------------------------------------------
# Values that cross between the test process and the solution process: plain data only.


class Unsendable(TypeError):
    pass


def encode(value, depth=0):
    """Turn a plain value into JSON-able data; anything else is refused."""
    if depth > 50:
        raise Unsendable("the value is nested too deeply")
    if value is None or value is True or value is False:
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return {"float": repr(float(value))}
    if isinstance(value, str):
        return {"str": str.__str__(value)}
    if isinstance(value, bytes):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, (list, tuple, set, frozenset)):
        kind = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
        tag = next((name for cls, name in kind.items() if isinstance(value, cls)), "list")
        return {tag: [encode(v, depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if isinstance(value, complex):
        return {"complex": [repr(value.real), repr(value.imag)]}
    raise Unsendable(f"a {type(value).__name__} object cannot cross the sandbox wall; return plain data")


def decode(data, depth=0):
    """Inverse of encode, strict: only the shapes encode makes are accepted."""
    if depth > 60:
        raise ValueError("nested too deeply")
    if data is None or type(data) in (bool, int):
        return data
    if type(data) is dict and len(data) == 1:
        (tag, body), = data.items()
        if tag == "str" and type(body) is str:
            return body
        if tag == "float" and type(body) is str:
            return float(body)
        if tag == "bytes" and type(body) is str:
            return bytes.fromhex(body)
        if tag == "complex" and type(body) is list and len(body) == 2:
            return complex(float(body[0]), float(body[1]))
        if tag in ("list", "tuple", "set", "frozenset") and type(body) is list:
            items = [decode(v, depth + 1) for v in body]
            return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)
        if tag == "dict" and type(body) is list:
            return {decode(k, depth + 1): decode(v, depth + 1) for k, v in (pair for pair in body if len(pair) == 2)}
    raise ValueError("malformed value")


def send_frame(sock, obj):
    data = json.dumps(obj).encode()
    sock.sendall(struct.pack(">I", len(data)) + data)


def recv_exact(sock, n):
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


# ----------------------------------------------------------------------------------------------------
# The solution process.


def solution_main(sock, out_fd, mountpoint, uid, gid, isolated):
    """Run in S: load the solution, then answer calls until the socket closes. Never returns."""
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    keep = sock.fileno()
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 16)
    isolation.die_with_parent()
    if isolated:
        isolation.enter_minimal_root(mountpoint, uid, gid)
    else:
        os.chdir(mountpoint)
    isolation.limit_resources(
        cpu_seconds=600,  # lowered to the run's own limit when the run arrives
        memory_bytes=isolation.current_address_space() + EXTRA_MEMORY,
        file_bytes=8 << 20,
        processes=SOLUTION_PROCESSES,
        files=256,
    )
    isolation.drop_privileges(uid, gid)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    sys.stdin = open(0, "r", closefd=False)
    # What the solution sees of its surroundings: its own folder, the standard library.
    sys.path[:] = [p for p in sys.path if p.startswith(os.path.realpath(sys.base_prefix))]
    for name in [m for m in sys.modules if m == "pytest" or m.startswith(("_pytest", "pluggy", "_spec2code"))]:
        del sys.modules[name]
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": "/work", "LANG": "C.UTF-8"})

    try:
        request = json.loads(recv_exact(sock, struct.unpack(">I", recv_exact(sock, 4))[0]))
        cpu = int(request["cpu_seconds"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        module = load_solution(request["solution"])
    except _LoadFailure as failure:
        send_frame(sock, {"loaded": False, "kind": failure.kind, "message": failure.message})
        os._exit(0)
    except EOFError:
        os._exit(0)
    names = [n for n, v in list(vars(module).items()) if not n.startswith("__") and callable(v)]
    send_frame(sock, {"loaded": True, "names": names})
    serve_calls(sock, module)
    os._exit(0)


class _LoadFailure(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind, self.message = kind, message


def load_solution(source):
    try:
        with open("solution.py", "w") as f:  # so tracebacks and inspect can show the lines
            f.write(source)
    except OSError:
        pass
    try:
        code = compile(source, "solution.py", "exec")
    except SyntaxError as e:
        raise _LoadFailure("syntax error", f"line {e.lineno}: {e.msg}") from None
    except (ValueError, MemoryError, RecursionError) as e:
        raise _LoadFailure("syntax error", f"{type(e).__name__}: {e}") from None
    module = types.ModuleType("solution")
    module.__file__ = os.path.abspath("solution.py")
    sys.modules["solution"] = module
    try:
        exec(code, module.__dict__)  # WARNING: runs untrusted, model-written code (inside the walls).
    except MemoryError:
        raise _LoadFailure("memory", "the solution ran out of memory while loading") from None
    except BaseException as e:  # noqa: BLE001 - a solution may raise anything, SystemExit included
        raise _LoadFailure("import error", f"{type(e).__name__}: {_safe_str(e)}{_where(e)}") from None
    return module


def _safe_str(exc):
    try:
        return str(exc)[:500]
    except BaseException:  # noqa: BLE001
        return "(message could not be shown)"


def _where(exc):
    tb, line = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "solution.py":
            line = tb.tb_lineno
        tb = tb.tb_next
    return f" (solution.py, line {line})" if line else ""


def serve_calls(sock, module):
    while True:
        try:
            request = json.loads(recv_exact(sock, struct.unpack(">I", recv_exact(sock, 4))[0]))
        except EOFError:
            return
        try:
            func = getattr(module, request["call"])
            args = decode(request["args"])
            kwargs = decode(request["kwargs"])
            value = func(*args, **kwargs)
            reply = {"value": encode(value)}
        except MemoryError:
            reply = {"raise": {"mro": ["MemoryError"], "message": "the solution ran out of memory"}}
        except BaseException as e:  # noqa: BLE001 - report whatever the solution raised
            names = [c.__name__ for c in type(e).__mro__] if isinstance(e, BaseException) else ["Exception"]
            reply = {"raise": {"mro": names, "message": _safe_str(e), "where": _where(e)}}
        try:
            data = json.dumps(reply).encode()
        except BaseException:  # noqa: BLE001
            data = json.dumps({"raise": {"mro": ["TypeError"], "message": "the value could not be sent"}}).encode()
        if len(data) > MAX_FRAME:
            data = json.dumps({"raise": {"mro": ["ValueError"], "message": "the returned value is too large"}}).encode()
        sock.sendall(struct.pack(">I", len(data)) + data)


# ----------------------------------------------------------------------------------------------------
# The test process side: proxies that call into the solution process.


class SolutionError(Exception):
    """The solution raised something a test cannot catch as itself (SystemExit, KeyboardInterrupt...)."""


class SolutionDied(Exception):
    """The solution's process ended while a test was calling it."""


class Channel:
    """T's end of the wire to S: calls go out as plain data, answers come back as plain data."""

    def __init__(self, sock, out_fd, keeper_pid):
        self.sock, self.out_fd, self.keeper_pid = sock, out_fd, keeper_pid
        self.printed, self.printed_extra = [], 0
        self.dead = None  # why the solution process is gone, once it is
        self.memory = False

    def drain(self, wait=0.0):
        """Read what the solution printed, keeping only the start of it."""
        while self.out_fd is not None:
            ready, _, _ = select.select([self.out_fd], [], [], wait)
            if not ready:
                return
            chunk = os.read(self.out_fd, 1 << 16)
            if not chunk:
                os.close(self.out_fd)
                self.out_fd = None
                return
            kept = sum(len(c) for c in self.printed)
            room = max(0, MAX_SOLUTION_OUTPUT - kept)
            self.printed.append(chunk[:room].decode("utf-8", "replace"))
            self.printed_extra += max(0, len(chunk) - room)
            wait = 0.0

    def receive(self):
        buf = b""
        while True:
            fds = [self.sock] + ([self.out_fd] if self.out_fd is not None else [])
            ready, _, _ = select.select(fds, [], [])
            if self.out_fd is not None and self.out_fd in ready:
                self.drain()
            if self.sock in ready:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    raise EOFError
                buf += chunk
                if len(buf) >= 4:
                    size = struct.unpack(">I", buf[:4])[0]
                    if size > MAX_FRAME:
                        raise ValueError("sent a reply larger than the sandbox accepts")
                    if len(buf) >= 4 + size:
                        return json.loads(buf[4 : 4 + size])

    def exit_story(self):
        """Wait briefly for the solution's keeper and say how the solution ended."""
        try:
            _, status = os.waitpid(self.keeper_pid, 0)
        except ChildProcessError:
            return "ended"
        code = os.waitstatus_to_exitcode(status)
        if code >= 128:
            sig = code - 128
            name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
            if sig == signal.SIGXCPU:
                return "used up its CPU time"
            return f"was killed by {name}"
        return f"exited with status {code}"

    def call(self, name, args, kwargs):
        if self.dead:
            raise SolutionDied(f"the solution is not running any more: its process {self.dead}")
        try:
            request = {"call": name, "args": encode(list(args)), "kwargs": encode(dict(kwargs))}
        except Unsendable as e:
            raise TypeError(f"cannot pass this argument to {name}(): {e}") from None
        try:
            send_frame(self.sock, request)
            reply = self.receive()
        except (EOFError, OSError, ValueError) as e:
            story = str(e) if isinstance(e, ValueError) else self.exit_story()
            self.dead = story
            self.sock.close()
            raise SolutionDied(f"{name}() did not return: the solution's process {story}") from None
        if "value" in reply:
            try:
                return decode(reply["value"])
            except (ValueError, TypeError, OverflowError):
                raise TypeError(f"{name}() returned something that is not plain data") from None
        return self.raise_from(name, reply.get("raise") or {})

    def raise_from(self, name, info):
        mro = [n for n in info.get("mro", []) if isinstance(n, str)] or ["Exception"]
        message = str(info.get("message", ""))[:2000]
        if mro[0] == "MemoryError":
            self.memory = True
        for base_name in mro:
            base = getattr(builtins, base_name, None)
            if isinstance(base, type) and issubclass(base, Exception):
                cls = base if base_name == mro[0] else type(mro[0], (base,), {"__module__": "solution"})
                break
        else:
            raise SolutionError(f"{name}() raised {mro[0]}: {message}")
        exc = cls(message)
        where = info.get("where")
        if where and hasattr(exc, "add_note"):
            exc.add_note(f"raised in the solution{where}")
        raise exc


def make_proxy(channel, name):
    def proxy(*args, **kwargs):
        __tracebackhide__ = True
        return channel.call(name, args, kwargs)

    proxy.__name__ = proxy.__qualname__ = name
    proxy.__module__ = "solution"
    return proxy


# ----------------------------------------------------------------------------------------------------
# The test process.


class Recorder:
    """pytest plugin, registered once in the server: keeps each test's outcome for the report."""

    def __init__(self):
        self.reset(None)

    def reset(self, emit):
        self.emit = emit
        self.outcomes, self.details, self.collect_errors = {}, {}, []

    def pytest_collectreport(self, report):
        if self.emit and report.failed:
            self.collect_errors.append(str(report.longrepr))

    def pytest_runtest_logreport(self, report):
        if not self.emit:
            return
        prior = self.outcomes.get(report.nodeid, "passed")
        if report.failed or report.skipped:
            outcome = "failed"
            text = report.longreprtext if report.failed else f"skipped: {report.longrepr}"
            self.details[report.nodeid] = self.details.get(report.nodeid, "") + text[:MAX_DETAILS]
        else:
            outcome = "passed" if report.when != "setup" else prior
        self.outcomes[report.nodeid] = "failed" if prior == "failed" else outcome


RECORDER = Recorder()


def spare_process(session, run_dir, mode, link):
    """Run in T: get ready for a run before there is one, then run it. Never returns.

    Getting ready (warming pytest in this process, starting the solution's process) happens while
    the caller is busy elsewhere, so a run only pays for loading the solution and running the tests.
    """
    os.setsid()
    isolation.die_with_parent()
    warm_pytest(session, os.path.join(run_dir, "warm"))
    # Without namespaces the runtime may sit in a folder only the caller can read, so nobody changes user.
    root_uid = os.geteuid() == 0 and mode == "namespaces"
    uid, gid = (isolation.NOBODY, isolation.NOBODY) if root_uid else (os.getuid(), os.getgid())
    tests_dir, tests_root, solution_root = (os.path.join(run_dir, d) for d in ("tests", "tests-root", "solution-root"))
    for path in (tests_dir, tests_root, solution_root):
        os.makedirs(path)
    if root_uid:
        os.chown(tests_dir, uid, gid)
        os.chown(solution_root, uid, gid)

    # Fork the solution's side first, before any test source is in this process's memory.
    t_sock, s_sock = socket.socketpair()
    out_r, out_w = os.pipe()
    keeper = os.fork()
    if keeper == 0:
        try:
            t_sock.close()
            link.close()
            os.close(out_r)
            isolation.die_with_parent()
            isolated = mode == "namespaces"
            if isolated:
                isolation.unshare(isolation.CLONE_NEWPID)
            pid = os.fork()
            if pid == 0:
                solution_main(s_sock, out_w, solution_root, uid, gid, isolated)
            s_sock.close()
            os.close(out_w)
            os.closerange(3, 1 << 16)
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            os._exit(128 - code if code < 0 else min(code, 127))
        except BaseException:  # noqa: BLE001
            os._exit(126)
    s_sock.close()
    os.close(out_w)

    send_frame(link, {"ready": True})
    try:
        msg, fds, _, _ = socket.recv_fds(link, 1 << 16, 4)
        request = json.loads(msg[4:])
        req_fd, res_fd = fds
    except (OSError, ValueError):
        os._exit(0)
    link.close()
    res = os.fdopen(res_fd, "w", buffering=1)

    def emit(**event):
        res.write(json.dumps(event) + "\n")

    if mode == "namespaces":
        # The tests see the runtime, pytest's environment and their own folder; nothing else.
        isolation.enter_minimal_root(
            tests_root, uid, gid, readonly=[os.path.realpath(sys.prefix)], writable=[tests_dir], proc=False, workdir=tests_dir,
        )
    if root_uid:
        isolation.drop_privileges(uid, gid)
    isolation.forbid_inspection()
    os.chdir(tests_dir)
    sys.dont_write_bytecode = True
    timeout = request["timeout"]
    # The tests are model-written code too: they get limits of their own.
    isolation.limit_resources(
        cpu_seconds=int(timeout) + 2,
        memory_bytes=isolation.current_address_space() + TEST_EXTRA_MEMORY,
        file_bytes=8 << 20,
        processes=SOLUTION_PROCESSES,
        files=256,
    )

    with os.fdopen(req_fd, "rb") as f:
        payload = json.loads(f.read())
    channel = Channel(t_sock, out_r, keeper)
    load = None
    try:
        send_frame(t_sock, {"solution": payload["solution"], "cpu_seconds": int(timeout) + 1})
        load = channel.receive()
    except (EOFError, OSError, ValueError):
        channel.dead = channel.exit_story()
        load = {"loaded": False, "kind": "crash", "message": f"the solution's process {channel.dead} while loading"}

    test_path = os.path.join(tests_dir, "test_solution.py")
    with open(test_path, "w") as f:
        f.write(payload["tests"])

    proxies = {}
    if load.get("loaded"):
        names = [n for n in load.get("names", []) if isinstance(n, str) and n.isidentifier()]
        proxies = {name: make_proxy(channel, name) for name in names}
    solution_module = types.ModuleType("solution")
    solution_module.__dict__.update(proxies)
    sys.modules["solution"] = solution_module
    for name, proxy in proxies.items():
        if not hasattr(builtins, name):
            setattr(builtins, name, proxy)

    RECORDER.reset(emit)
    if payload.get("compiled"):
        preload_test_module(payload["compiled"], test_path)
    items = collect_file(session, test_path)
    names = [item.name for item in items]
    emit(event="collected", names=names)
    if RECORDER.collect_errors:
        emit(event="error", kind="test error", message=_first_line_of_collect_error(RECORDER.collect_errors[0]),
             details=RECORDER.collect_errors[0][:MAX_DETAILS])
    elif not load.get("loaded"):
        emit(event="error", kind=load.get("kind", "crash"), message=str(load.get("message", ""))[:500])
    elif not items:
        emit(event="error", kind="no tests", message="the test code defines no test_* functions")
    else:
        for i, item in enumerate(items):
            nextitem = items[i + 1] if i + 1 < len(items) else None
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            outcome = RECORDER.outcomes.get(item.nodeid, "failed")
            details = RECORDER.details.get(item.nodeid, "").replace(tests_dir + os.sep, "")
            emit(event="test", name=item.name, outcome=outcome, details=details)
        if channel.dead:
            kind = "memory" if channel.memory else "crash"
            emit(event="error", kind=kind, message=f"the solution's process {channel.dead} during the tests")
        elif channel.memory:
            emit(event="error", kind="memory", message="the solution ran out of memory")
    channel.drain()
    if channel.printed:
        emit(event="printed", text="".join(channel.printed), cut=channel.printed_extra)
    emit(event="done")
    res.flush()
    os._exit(0)


def preload_test_module(compiled, path):
    """Put the caller's assertion-rewritten code in place as the test module, so pytest need not
    rewrite it again. If it fails to load, pytest imports the file itself and reports why."""
    import base64
    import marshal

    def with_filename(code):
        consts = tuple(with_filename(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
        return code.replace(co_filename=path, co_consts=consts)

    name = os.path.splitext(os.path.basename(path))[0]
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    try:
        exec(with_filename(marshal.loads(base64.b64decode(compiled))), module.__dict__)
    except BaseException:  # noqa: BLE001
        del sys.modules[name]


def collect_file(session, path):
    """Collect the tests of one file, without pytest walking the folders around it."""
    from pathlib import Path

    try:
        module = pytest.Module.from_parent(session, path=Path(path))
        return [item for item in session.genitems(module) if isinstance(item, pytest.Item)]
    except BaseException as e:  # noqa: BLE001 - a test file may raise anything at import
        RECORDER.collect_errors.append(f"{type(e).__name__}: {e}")
        return []


def run_items(items):
    for i, item in enumerate(items):
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=items[i + 1] if i + 1 < len(items) else None)


def warm_pytest(session, folder):
    """Collect and run a throwaway test file here, so the pages a run touches are already ours."""
    os.makedirs(folder)
    path = os.path.join(folder, "test_warmup.py")
    with open(path, "w") as f:
        f.write(WARM_UP_TESTS)
    run_items(collect_file(session, path))
    RECORDER.reset(None)
    sys.modules.pop("test_warmup", None)


def _first_line_of_collect_error(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("E "):
            return "the tests could not be loaded: " + line[1:].strip()[:300]
    return "the tests could not be loaded: " + (lines[-1][:300] if lines else "unknown error")


# ----------------------------------------------------------------------------------------------------
# The server loop.


class Server:
    """pytest plugin whose collection hook never returns: it serves runs, one spare process each."""

    def __init__(self, base_dir, mode, notes):
        self.base_dir, self.mode, self.notes = base_dir, mode, notes
        self.active = {}  # pid of a test process -> its folder
        self.counter = 0
        self.spare = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        control = socket.socket(fileno=int(sys.argv[1]))
        self.import_what_runs_use(session)
        self.spare = self.fork_spare(session)
        send_frame(control, {"ready": True, "isolation": self.mode, "notes": self.notes})
        while True:
            try:
                msg, fds, _, _ = socket.recv_fds(control, 1 << 16, 4)
            except OSError:
                msg, fds = b"", []
            if not msg:
                self.shutdown()
            try:
                request = json.loads(msg[4:])
            except ValueError:
                request = {}
            if request.get("cmd") == "run" and len(fds) == 2:
                send_frame(control, {"pid": self.start_run(session, msg, fds)})
                self.spare = self.fork_spare(session)
            elif request.get("cmd") == "finish":
                self.finish(request.get("pid"))
                send_frame(control, {"finished": True})
            else:
                for fd in fds:
                    os.close(fd)
                send_frame(control, {"error": "unknown request"})

    def fork_spare(self, session):
        self.counter += 1
        run_dir = os.path.join(self.base_dir, f"run-{self.counter}")
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                spare_process(session, run_dir, self.mode, theirs)
            finally:
                os._exit(70)
        theirs.close()
        self.active[pid] = run_dir
        return pid, ours

    def start_run(self, session, msg, fds):
        """Hand the run's two pipes to the spare test process, which is (or soon will be) ready."""
        for _attempt in range(3):
            pid, link = self.spare
            try:
                link.settimeout(60)
                _ = recv_exact(link, struct.unpack(">I", recv_exact(link, 4))[0])
                socket.send_fds(link, [msg], fds)
                link.close()
                break
            except (OSError, EOFError, ValueError):
                link.close()
                self.finish(pid)
                self.spare = self.fork_spare(session)
        for fd in fds:
            os.close(fd)
        return pid

    def finish(self, pid):
        """Kill what is left of a run, wait until it is gone, remove its folder."""
        if pid in self.active:
            for target in (-pid, pid):
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        self.reap_orphans()
        run_dir = self.active.pop(pid, None)
        if run_dir:
            _remove_tree(run_dir)

    def reap_orphans(self, patience=5.0):
        """Everything the runs left behind was re-parented to us (we are a subreaper): end it."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            orphans = [p for p in _children() if p not in self.active]
            if not orphans:
                return
            for p in orphans:
                try:
                    os.kill(p, signal.SIGKILL)
                except OSError:
                    pass
            for p in orphans:
                try:
                    os.waitpid(p, os.WNOHANG)
                except ChildProcessError:
                    pass
            time.sleep(0.001)

    def import_what_runs_use(self, session):
        """Run a throwaway run in a fork and import here whatever it loaded, so forks start warm."""
        before = set(sys.modules)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                warm_pytest(session, os.path.join(self.base_dir, "warm"))
                os.write(w, json.dumps(sorted(set(sys.modules) - before)).encode())
            finally:
                os._exit(0)
        os.close(w)
        data = b""
        while chunk := os.read(r, 1 << 16):
            data += chunk
        os.close(r)
        os.waitpid(pid, 0)
        _remove_tree(os.path.join(self.base_dir, "warm"))
        for name in json.loads(data or b"[]"):
            try:
                __import__(name)
            except Exception:  # noqa: BLE001 - warming is best effort
                pass

    def shutdown(self):
        for pid in list(self.active):
            self.finish(pid)
        _remove_tree(self.base_dir)
        os._exit(0)


WARM_UP_TESTS = '''
import pytest
def f(x): return x
@pytest.fixture
def value(): return 3
@pytest.mark.parametrize("n", [1, 2])
def test_param(n, value): assert n < value
def test_raises():
    with pytest.raises(ValueError, match="x"): raise ValueError("x")
def test_approx(): assert 0.1 + 0.2 == pytest.approx(0.3)
def test_fails(): assert f([1, "a"]) == [1, "b"], "message"
def test_fails_str(): assert f("abc\\ndef") == "abd\\ndef"
class TestClass:
    def test_in_class(self): assert f({"a": 1}) == {"a": 2}
'''


def _children():
    found = []
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return found


def _remove_tree(path):
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def main():
    mode, notes = "process", []
    reason = isolation.namespaces_available()
    if os.environ.get("SPEC2CODE_ISOLATION") == "process":
        reason = "process isolation was asked for (SPEC2CODE_ISOLATION=process)"
    if reason is None:
        if isolation.enter_network_void():
            mode = "namespaces"
        else:
            notes.append("could not make a network namespace")
    else:
        notes.append(reason)
    if mode != "namespaces":
        notes.append("the solution can reach the network and the file system as your user")
    isolation.prctl(isolation.PR_SET_CHILD_SUBREAPER, 1)
    isolation.die_with_parent()
    import tempfile

    base_dir = tempfile.mkdtemp(prefix="spec2code-sandbox-")
    os.chmod(base_dir, 0o755)
    if not os.environ.get("SPEC2CODE_SANDBOX_DEBUG"):
        sys.stdout = sys.stderr = open(os.devnull, "w")
    pytest.main([*PYTEST_ARGS, "--rootdir", base_dir, "-c", os.devnull, base_dir], plugins=[Server(base_dir, mode, notes), RECORDER])
    os._exit(1)


if __name__ == "__main__":
    main()
