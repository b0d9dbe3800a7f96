"""The tests' side of the sandbox: a spare test process that warms up, starts the solution's process, then runs one run."""

from __future__ import annotations

import builtins
import json
import os
import socket
import sys
import types

import pytest
import walls
from proxy import Channel, make_proxy
from solution_side import SOLUTION_PROCESSES, solution_main
from text import cut
from wire import recv_frame_fds, send_frame

MAX_DETAILS = 2000  # characters of failure details kept per test
TEST_EXTRA_MEMORY = 1 << 30  # address space the tests may add to what the warm process maps

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
            self.details[report.nodeid] = self.details.get(report.nodeid, "") + cut(text, MAX_DETAILS)
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
    walls.die_with_parent()
    warm_pytest(session, os.path.join(run_dir, "warm"))
    # Without namespaces the runtime may sit in a folder only the caller can read, so nobody changes user.
    root_uid = os.geteuid() == 0 and mode == "namespaces"
    uid, gid = (walls.NOBODY, walls.NOBODY) if root_uid else (os.getuid(), os.getgid())
    tests_dir, tests_root, solution_root = (os.path.join(run_dir, d) for d in ("tests", "tests-root", "solution-root"))
    for path in (tests_dir, tests_root, solution_root):
        os.makedirs(path)
    if root_uid:
        os.chown(tests_dir, uid, gid)
        os.chown(solution_root, uid, gid)

    # Fork the solution's side first, before any test source is in this process's memory.
    t_sock, out_r, keeper = start_solution_side(solution_root, uid, gid, mode, close=[link])

    send_frame(link, {"ready": True})
    try:
        request, fds = recv_frame_fds(link, 4)
        req_fd, res_fd = fds
    except (OSError, ValueError, EOFError):
        os._exit(0)
    link.close()
    res = os.fdopen(res_fd, "w", buffering=1)

    def emit(**event):
        res.write(json.dumps(event) + "\n")

    if mode == "namespaces":
        # The tests see the runtime, pytest's environment and their own folder; nothing else.
        walls.enter_minimal_root(
            tests_root, uid, gid, readonly=[os.path.realpath(sys.prefix)], writable=[tests_dir], proc=False, workdir=tests_dir,
        )
    if root_uid:
        walls.drop_privileges(uid, gid)
    walls.forbid_inspection()
    os.chdir(tests_dir)
    sys.dont_write_bytecode = True
    timeout = request["timeout"]
    # The tests are model-written code too: they get limits of their own.
    walls.limit_resources(
        cpu_seconds=int(timeout) + 2,
        memory_bytes=walls.current_address_space() + TEST_EXTRA_MEMORY,
        file_bytes=8 << 20,
        processes=SOLUTION_PROCESSES,
        files=256,
    )

    with os.fdopen(req_fd, "rb") as f:
        payload = json.loads(f.read())
    channel = Channel(t_sock, out_r, keeper)
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
             details=cut(RECORDER.collect_errors[0], MAX_DETAILS))
    elif not load.get("loaded"):
        emit(event="error", kind=load.get("kind", "crash"), message=cut(load.get("message", ""), 500))
    elif not items:
        emit(event="error", kind="no tests", message="the test code defines no test_* functions")
    else:
        def report(item):
            outcome = RECORDER.outcomes.get(item.nodeid, "failed")
            details = RECORDER.details.get(item.nodeid, "").replace(tests_dir + os.sep, "")
            emit(event="test", name=item.name, outcome=outcome, details=details)

        run_items(items, after=report)
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


def start_solution_side(solution_root, uid, gid, mode, close):
    """Fork the keeper, which forks the solution's process; return our socket to it, its output and the keeper."""
    t_sock, s_sock = socket.socketpair()
    out_r, out_w = os.pipe()
    keeper = os.fork()
    if keeper == 0:
        try:
            t_sock.close()
            for other in close:
                other.close()
            os.close(out_r)
            walls.die_with_parent()
            isolated = mode == "namespaces"
            if isolated:
                walls.unshare(walls.CLONE_NEWPID)
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
    return t_sock, out_r, keeper


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


def run_items(items, after=lambda item: None):
    """Run the tests through pytest's own protocol (setup, call, teardown, fixtures), calling `after` for each."""
    for i, item in enumerate(items):
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=items[i + 1] if i + 1 < len(items) else None)
        after(item)


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
