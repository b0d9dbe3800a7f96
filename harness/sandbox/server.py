"""The sandbox server: a warm pytest process that forks a test process and a solution process per run.

Started by `harness.sandbox` as `python -I server.py`. It never imports the `harness` package, so nothing in its
memory, and nothing forked from it, knows the held-out tests: it imports the modules beside it by name, and the
lab's text helpers (harness/text.py, which import nothing) by path.

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

import importlib.util
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import time

# The sandbox's own modules sit beside this file; they are imported by name, not through `harness`.
_HERE = os.path.dirname(os.path.abspath(__file__))
_TEXT = importlib.util.spec_from_file_location("text", os.path.join(os.path.dirname(_HERE), "text.py"))
sys.modules["text"] = importlib.util.module_from_spec(_TEXT)
_TEXT.loader.exec_module(sys.modules["text"])
sys.path.insert(0, _HERE)
import pytest  # noqa: E402  (imported once here, so every run starts warm)
import walls  # noqa: E402
from tests_side import RECORDER, spare_process, warm_pytest  # noqa: E402
from wire import recv_frame, recv_frame_fds, send_frame  # noqa: E402

sys.path.remove(_HERE)

PYTEST_ARGS = [
    "-q", "--tb=short", "--capture=sys", "-p", "no:cacheprovider", "-p", "no:stepwise",
    "-p", "no:pastebin", "-p", "no:junitxml", "-p", "no:doctest", "-p", "no:legacypath",
    "-p", "no:logging", "-p", "no:faulthandler", "-p", "no:unraisableexception", "-p", "no:threadexception",
    "-p", "no:warnings", "-p", "no:setuponly", "-p", "no:setupplan",
    "-W", "ignore", "-o", "console_output_style=classic",
]  # fmt: skip


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
                request, fds = recv_frame_fds(control, 4)
            except (OSError, EOFError):
                self.shutdown()
            except ValueError:
                request, fds = {}, []
            if request.get("cmd") == "run" and len(fds) == 2:
                send_frame(control, {"pid": self.start_run(session, request, fds)})
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

    def start_run(self, session, request, fds):
        """Hand the run's two pipes to the spare test process, which is (or soon will be) ready."""
        for _attempt in range(3):
            pid, link = self.spare
            try:
                link.settimeout(60)
                recv_frame(link)  # the spare says it is ready
                send_frame(link, request, fds)
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
    shutil.rmtree(path, ignore_errors=True)


def main():
    mode, notes = "process", []
    reason = walls.namespaces_available()
    if os.environ.get("SPEC2CODE_ISOLATION") == "process":
        reason = "process isolation was asked for (SPEC2CODE_ISOLATION=process)"
    if reason is None:
        if walls.enter_network_void():
            mode = "namespaces"
        else:
            notes.append("could not make a network namespace")
    else:
        notes.append(reason)
    if mode != "namespaces":
        notes.append("the solution can reach the network and the file system as your user")
    walls.prctl(walls.PR_SET_CHILD_SUBREAPER, 1)
    # No parent-death signal here: it fires when the *thread* that started us ends, and callers may use
    # thread pools. The control socket closing (the caller exiting, however it dies) ends us instead.
    base_dir = tempfile.mkdtemp(prefix="spec2code-sandbox-")
    os.chmod(base_dir, 0o755)
    if not os.environ.get("SPEC2CODE_SANDBOX_DEBUG"):
        sys.stdout = sys.stderr = open(os.devnull, "w")
    pytest.main([*PYTEST_ARGS, "--rootdir", base_dir, "-c", os.devnull, base_dir], plugins=[Server(base_dir, mode, notes), RECORDER])
    os._exit(1)


if __name__ == "__main__":
    main()
