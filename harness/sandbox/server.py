"""The sandbox server: a warm pytest process that forks a test process and a solution process per run.

Started by `harness.sandbox` as `python -I server.py FD`, in a session of its own (so Ctrl-C at the caller's
terminal does not reach it): it ends, removing everything of its runs, when the caller closes the socket FD (the
caller exiting, however it dies), or on SIGTERM. It never imports the `harness` package, so nothing in its
memory, and nothing forked from it, knows the held-out tests: it imports the modules beside it by name, and the
lab's text and syntax helpers (harness/text.py and harness/syntax.py, which import nothing of the lab) by path.

Per run, at the namespaces level (see walls.py for the others):
    server (pytest configured once)
      └─ test process T: as root, born the first process of the run's PID namespace (the server makes it, then
           goes back to its own); through a user namespace, under a keeper that makes the user and PID namespaces.
           Its own mount (a tmpfs root), network and IPC namespaces, its own user; collects and runs the tests with
           pytest; reports each result to the caller over a pipe the caller opened; sees the solution only through
           proxy functions
           └─ solution process S: the model's code, the first of a PID namespace of its own made the same way (its
                end, or T's, ends all it started), with another user of its own, only the Python runtime visible,
                answering calls with plain values
A process born without a keeper watches its parent through a pidfd until its walls are up (linux.fork_watched).
S is forked before T reads the test source, so expected values never enter the solution's process.
As root below that level, a server whose Python other users cannot read goes on in a copy they can (reachable.py);
where code could only run as root, unasked, it runs none and says why (walls.Ladder.refused).
"""

from __future__ import annotations

import gc
import importlib.util
import os
import select
import signal
import socket
import sys
import time
import traceback

gc.disable()  # until the warm state is frozen (learn_what_runs_need): collections took a tenth of the imports' time
# The sandbox's own modules sit beside this file; they are imported by name, not through `harness`.
_HERE = os.path.dirname(os.path.abspath(__file__))
for _name in ("text", "syntax"):  # the lab's helpers that import nothing of it, by path
    _spec = importlib.util.spec_from_file_location(_name, os.path.join(os.path.dirname(_HERE), f"{_name}.py"))
    sys.modules[_name] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules[_name])
sys.path.insert(0, _HERE)
import linux  # noqa: E402
import reachable  # noqa: E402
import walls  # noqa: E402

if __name__ == "__main__":  # the ladder first: a server that goes on in a readable copy imports pytest only there
    LADDER = walls.choose(os.environ.get("SPEC2CODE_ISOLATION", "auto"))
    if walls.wants_a_readable_runtime(LADDER):
        LADDER.notes += reachable.rerun_readable([os.path.abspath(__file__), *sys.argv[1:]])
import pytest  # noqa: E402  (imported once here, so every run starts warm)
import runs  # noqa: E402
import tidy  # noqa: E402
from runner import RECORDER, warm_forks, warm_module_lookup  # noqa: E402
from solution_side import name_lab_modules  # noqa: E402
from tests_side import learn_from_a_rehearsal, spare_process  # noqa: E402
from wire import recv_frame, recv_frame_fds, send_frame  # noqa: E402

sys.path.remove(_HERE)

PYTEST_ARGS = [
    "-q", "--tb=short", "--capture=sys", "-p", "no:cacheprovider", "-p", "no:stepwise",
    "-p", "no:pastebin", "-p", "no:junitxml", "-p", "no:doctest", "-p", "no:legacypath",
    "-p", "no:logging", "-p", "no:faulthandler", "-p", "no:unraisableexception", "-p", "no:threadexception",
    "-p", "no:warnings", "-p", "no:setuponly", "-p", "no:setupplan",
    "-W", "ignore", "-o", "console_output_style=classic",
]  # fmt: skip
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# A spare is prepared once the server has had nothing to do for this long (seconds). Forking the warm server takes
# about 1.5 ms in the kernel; forked right after answering a run's start, it held up the caller that answer woke: for
# runs 0.3 s apart, the start took 2.3 ms instead of 0.6 ms.
QUIET_BEFORE_PREPARING = 0.0005
SPARES_WHEN_BUSY = 2  # spares kept while runs overlap (a caller's threads); else one, which a session's memory fits


class Shutdown(BaseException):
    """A signal asked the server to end: it cleans up first."""


class Server:
    """pytest plugin whose collection hook never returns: it serves runs, one spare process each."""

    def __init__(self, machine: runs.Machine, hello: dict):
        self.machine, self.hello = machine, hello
        self.active: dict[int, runs.Run] = {}  # pid of a run's first process -> the run
        self.counter = 0
        self.spares = []  # (pid, link) of test processes made ready ahead of the runs that will use them, oldest first
        self.control = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        try:
            self.control = socket.socket(fileno=int(sys.argv[1]))
            warm_forks(session.config)
            self.learn_what_runs_need(session)
            self.spares.append(self.fork_spare(session))
            send_frame(self.control, self.hello)
            self.serve(session)
        except BaseException:  # noqa: BLE001 - Shutdown, a lost caller, or a bug here: clean up all the same
            pass
        self.shutdown()

    def serve(self, session):
        wanted = 1  # spares to keep ready: one, or SPARES_WHEN_BUSY while the caller's runs overlap
        while True:
            quiet = QUIET_BEFORE_PREPARING if wanted == 1 else 0.0  # overlapping runs need their spares at once
            if len(self.spares) < wanted and not select.select([self.control], [], [], quiet)[0]:
                self.spares.append(self.fork_spare(session))
                continue
            try:
                request, fds = recv_frame_fds(self.control, 4)
            except ValueError:
                request, fds = {}, []
            if not isinstance(request, dict):
                request = {}
            if request.get("cmd") == "run" and len(fds) == 2:
                overlapping = len(self.active) > len(self.spares)  # a run still going: the caller runs several at once
                send_frame(self.control, self.start_run(session, request, fds))
                wanted = SPARES_WHEN_BUSY if overlapping else 1
            elif request.get("cmd") == "finish":
                run = self.active.pop(request.get("pid"), None)
                if run:
                    run.stop(self.reap_orphans)
                self.reap_orphans()
                outlived = {"outlived": run.outlived} if run and run.outlived else {}
                send_frame(self.control, {"finished": True, **outlived})
                if run:
                    run.release()
            else:
                for fd in fds:
                    os.close(fd)
                send_frame(self.control, {"error": "unknown request"})

    def fork_spare(self, session):
        """A test process made ready ahead of the run that will use it; (pid, link) or (None, why not)."""
        self.counter += 1
        try:
            run = self.machine.new_run(self.counter)
        except OSError as e:
            return None, f"the sandbox could not set up a run ({e})"
        ours, theirs = socket.socketpair()
        try:
            pid = walls.fork_to_wall(self.machine.ladder)
        except OSError as e:
            ours.close()
            theirs.close()
            run.release()
            return None, f"the sandbox could not start a run ({e})"
        if pid == 0:
            try:
                for sig in ENDING_SIGNALS:
                    signal.signal(sig, signal.SIG_DFL)
                run.forget_others()
                runs.close_all_but(theirs.fileno(), *[fd for fd in [linux.keeper_fd()] if fd is not None])
                spare_process(session, run, self.machine.ladder, theirs)
            except BaseException:  # noqa: BLE001 - the run reports a crash; with SPEC2CODE_SANDBOX_DEBUG, say why
                if os.environ.get("SPEC2CODE_SANDBOX_DEBUG"):
                    traceback.print_exc()
            finally:
                os._exit(70)
        theirs.close()
        run.pid = pid
        self.active[pid] = run
        return pid, ours

    def start_run(self, session, request, fds):
        """Hand the run's two pipes to the spare test process, which is (or soon will be) ready."""
        reply = {"error": "the sandbox could not start a run"}
        for _attempt in range(3):
            pid, link = self.spares.pop(0) if self.spares else self.fork_spare(session)
            if pid is None:
                reply = {"error": link}
                continue
            try:
                link.settimeout(60)
                ready = recv_frame(link)  # the spare says it is ready, and whether it is in its run's cgroups
                if not (isinstance(ready, dict) and ready.get("joined")) and pid in self.active:
                    self.active[pid].joined = False
                # The run's clock starts now: time this server spent on earlier runs is not the solution's.
                request["deadline"] = time.monotonic() + float(request.get("timeout", 10))
                send_frame(link, request, fds)
                link.close()
                reply = {"pid": pid, "deadline": request["deadline"]}
                break
            except (OSError, EOFError, ValueError):
                link.close()
                run = self.active.pop(pid, None)
                if run:
                    run.stop(self.reap_orphans)
                    run.release()
        for fd in fds:
            os.close(fd)
        return reply

    def reap_orphans(self, patience=5.0):
        """Everything the runs left behind was re-parented to us (we are a subreaper): end it."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            orphans = [p for p in runs.children() if p not in self.active]
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

    def learn_what_runs_need(self, session):
        """Learn from throwaway runs (in a fork) what forks should find ready: the modules runs load, imported here,
        and the pages a run writes. Where runs loaded modules the server had not (none, with pytest 9), the server
        imports them and learns the pages again, as its memory has moved."""
        folder = os.path.join(self.machine.base_dir, "learn")
        for attempt in (1, 2):
            name_lab_modules()
            gc.freeze()  # what the server holds now is never collected in a fork, so forks share its pages longer
            gc.enable()  # for the server's own garbage from here on, and for every fork's (tests make garbage too)
            loaded = learn_from_a_rehearsal(session, folder)
            if not loaded or attempt == 2:
                return
            for name in loaded:
                try:
                    __import__(name)
                except Exception:  # noqa: BLE001 - warming is best effort
                    pass
            warm_module_lookup()  # the new modules' files too

    def shutdown(self):
        """End every run, remove every folder, then exit. Nothing here may stop it from reaching the exit."""
        try:
            for sig in ENDING_SIGNALS:
                signal.signal(sig, signal.SIG_IGN)
            runs_left, self.active = list(self.active.values()), {}
            for run in runs_left:
                run.stop(self.reap_orphans)
            self.reap_orphans()
            for run in runs_left:
                run.release()
            tidy.remove_tree(self.machine.base_dir)
        finally:
            os._exit(0)


def _end(signum, frame):
    raise Shutdown


def _refuse(hello):
    """No code may run here (see walls.Ladder.refused): say so, then answer every request so until the caller goes."""
    control = socket.socket(fileno=int(sys.argv[1]))
    try:
        send_frame(control, hello)
        while True:
            for fd in recv_frame_fds(control, 4)[1]:
                os.close(fd)
            send_frame(control, {"error": hello["refused"]})
    finally:
        os._exit(0)


def main():
    for sig in ENDING_SIGNALS:
        signal.signal(sig, _end)
    ladder = LADDER
    try:  # as root, where the runs' own users can reach their folders (never a private TMPDIR)
        scratch = reachable.scratch() if walls.as_root() else None
    except OSError as e:
        ladder.refused = f"the sandbox will not run untrusted code: {e}"
    if ladder.refused:
        _refuse({"ready": True, "isolation": ladder.level, **ladder.describe(), "refused": ladder.refused,
                 "notes": [ladder.refused, *ladder.notes]})
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    # No parent-death signal here: it fires when the *thread* that started us ends, and callers may use
    # thread pools. The control socket closing (the caller exiting, however it dies) ends us instead.
    base_dir = tidy.owned_folder("spec2code-sandbox-", scratch)  # locked while we live; a dead server's is reclaimed
    os.chmod(base_dir, 0o755)
    os.mkdir(os.path.join(base_dir, "root"), 0o755)  # every run's tmpfs root is mounted here, in its own namespace
    machine = runs.Machine(ladder, base_dir)
    hello = {"ready": True, "isolation": ladder.level, **ladder.describe(), "folder": base_dir}
    hello["notes"] = ladder.notes + machine.notes
    if not os.environ.get("SPEC2CODE_SANDBOX_DEBUG"):
        sys.stdout = sys.stderr = open(os.devnull, "w")
    try:
        pytest.main([*PYTEST_ARGS, "--rootdir", base_dir, "-c", os.devnull, base_dir],
                    plugins=[Server(machine, hello), RECORDER])
    finally:
        tidy.remove_tree(base_dir)
        os._exit(1)


if __name__ == "__main__":
    main()
