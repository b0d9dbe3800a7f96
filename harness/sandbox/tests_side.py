"""The tests' side of the sandbox: a spare test process that walls itself in, starts the solution's process, then runs one run."""

from __future__ import annotations

import builtins
import json
import os
import resource
import select
import sys
import time
import types

import cgroups
import cores
import linux
import pages
import tidy
import walls
from proxy import Channel, make_proxy
from runner import (MAX_DETAILS, RECORDER, collect_file, compile_tests, first_line_of_collect_error,
                    preload_test_module, rehearse, run_items, typical_run, warm_pytest)
from solution_side import start_solution_side
from text import cut
from wire import recv_frame_fds, send_frame

TEST_EXTRA_MEMORY = 1 << 30  # address space the tests may add to what the warm process maps
TEST_PROCESSES = 256  # tasks (processes and threads) the tests' user may have at once
LOAD_MARGIN = (0.2, 1.0, 0.2)  # (least, most, share of the timeout) kept after loading, to report on the tests
KINDS = ("syntax error", "import error", "memory", "crash", "timeout")  # what a failed load may say
WRITTEN = pages.Plan()  # the page ranges a run writes (see pages.py), learned once by the server
RUNTIME_PREFIX = os.path.realpath(sys.prefix)  # resolved once in the server, not in each test process


def learn_from_a_rehearsal(session, folder) -> list[str]:
    """In the server, once warm: from throwaway runs in one fork, learn which pages a run writes (for every spare to
    copy ahead), and return the modules runs load that the server has not (for it to import, then learn again)."""
    global WRITTEN
    mappings, before = pages.writable_mappings(), set(sys.modules)

    def learned():
        written = pages.owned(mappings)  # a typical run's, before a wider one (fixtures, classes, failures) below
        warm_pytest(session, os.path.join(folder, "wider"))
        return {"pages": written, "modules": sorted(set(sys.modules) - before)}

    found = rehearse(lambda: typical_run(session, folder), learned)
    tidy.remove_tree(folder)
    found = found if isinstance(found, dict) else {}
    WRITTEN = pages.Plan(found.get("pages") or [])
    return [str(name) for name in found.get("modules") or []]


def spare_process(session, run, ladder, link):
    """Run in the run's first process: wall in, get ready for a run before there is one, then run it. Never returns.

    Getting ready (the walls, starting the solution's process) happens while the caller is busy elsewhere, so a
    run only pays for loading the solution and running the tests. The server imported what a run uses before it
    forked this process, so nothing is warmed here: a throwaway run per process cost about 25 ms of CPU a run (40%)
    and saved 2-5 ms of its time.
    """
    os.setsid()
    try:
        cgroups.join(run.cgroups)
        joined = True
    except OSError:  # runs without: the server then never takes an empty cgroup for a run with nothing left
        joined = False
    walls.begin(ladder, run.tests_uid, run.tests_uid)  # at the namespaces level, we are the first of a PID namespace
    memory = linux.current_address_space() + TEST_EXTRA_MEMORY
    # Fork the solution's side first, before any test source is in this process's memory.
    t_sock, out_r, keeper = start_solution_side(run, ladder, close=[link])
    limits = dict(cpu_seconds=600, memory_bytes=memory, file_bytes=8 << 20, processes=TEST_PROCESSES, files=256)
    # The tests are model-written code too: they see the runtime, pytest's environment and their own folder.
    walls.finish(ladder, run.tests_uid, run.tests_uid, mountpoint=os.path.join(run.machine.base_dir, "root"),
                 workdir=run.tests_dir, readonly=[RUNTIME_PREFIX], limits=limits)
    linux.forbid_inspection()
    sys.dont_write_bytecode = True

    send_frame(link, {"ready": True, "joined": joined})
    # While no run has come, copy the pages a run writes (after the fork above, which would have shared them again).
    WRITTEN.copy_ahead(until=lambda: select.select([link], [], [], 0)[0])
    try:
        request, fds = recv_frame_fds(link, 4)
        req_fd, res_fd = fds
    except (OSError, ValueError, EOFError):
        os._exit(0)
    link.close()
    res = os.fdopen(res_fd, "w", buffering=1)

    def emit(**event):
        res.write(json.dumps(event) + "\n")

    timeout = float(request["timeout"])
    resource.setrlimit(resource.RLIMIT_CPU, (int(timeout) + 2, int(timeout) + 3))
    with os.fdopen(req_fd, "rb") as f:
        payload = json.loads(f.read())
    run_tests(session, payload, Channel(t_sock, out_r, keeper), emit, run.tests_dir, timeout, request.get("deadline"))
    res.flush()
    os._exit(0)


def run_tests(session, payload, channel, emit, tests_dir, timeout, deadline):
    """Load the solution over there, the tests here; run them and emit what happened, ending with "done"."""
    if not isinstance(deadline, (int, float)):
        deadline = time.monotonic() + timeout
    clock = [time.monotonic()]  # when each stage ended, for the benchmark's "stages" (no verdict reads them)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    least, most, share = LOAD_MARGIN
    load_by = deadline - min(most, max(least, share * timeout))
    compiled = payload.get("compiled")
    if not compiled and payload.get("compile"):
        # Always the first record, sent before any test code runs here (so no test can forge it): the caller keeps
        # the code for the next runs of these tests.
        compiled = compile_tests(payload["tests"])
        emit(event="compiled", code=compiled)
    try:
        send_frame(channel.sock, {"solution": payload["solution"], "cpu_seconds": int(timeout) + 1})
        load = checked_load(channel.receive(until=load_by))
    except TimeoutError:
        load = {"loaded": False, "kind": "timeout",
                "message": f"the solution did not finish loading within {timeout:g} s (does it loop at import?)"}
    except (EOFError, OSError, ValueError) as e:
        channel.dead = channel.story(e)
        load = {"loaded": False, "kind": "crash", "message": f"the solution's process {channel.dead} while loading"}

    clock.append(time.monotonic())
    test_path = os.path.join(tests_dir, "test_solution.py")
    with open(test_path, "w") as f:
        f.write(payload["tests"])
    proxies = {name: make_proxy(channel, name) for name in load["names"]} if load["loaded"] else {}
    solution_module = types.ModuleType("solution")
    solution_module.__dict__.update(proxies)
    sys.modules["solution"] = solution_module
    for name, proxy in proxies.items():
        if not hasattr(builtins, name):
            setattr(builtins, name, proxy)

    RECORDER.reset(emit)
    if compiled:
        preload_test_module(compiled, test_path)
    items = collect_file(session, test_path)
    clock.append(time.monotonic())
    emit(event="collected", names=[item.name for item in items])
    if RECORDER.collect_errors:
        emit(event="error", kind="test error", message=first_line_of_collect_error(RECORDER.collect_errors[0]),
             details=cut(RECORDER.collect_errors[0], MAX_DETAILS))
    elif not load["loaded"]:
        emit(event="error", kind=load["kind"], message=load["message"], details=load.get("details", ""))
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
    clock.append(time.monotonic())
    emit(event="stages", faults=resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults,
         **{stage: b - a for stage, a, b in zip(("load", "collect", "tests"), clock, clock[1:])})
    channel.drain()
    if channel.printed:
        emit(event="printed", text="".join(channel.printed), cut=channel.printed_extra)
    emit(event="done")
    cores.step_aside(channel.pinned)  # if the run moved to one core: the solution's process ends there, this one aside
    channel.end()  # after "done" has gone: the solution's process, woken to end, may run first on this core


def checked_load(message):
    """The solution's "loaded" message, as sent by honest code; anything else (a list, other types, deep nesting)
    is a crash of the solution's side, never a reason for this process to fail."""
    bad = {"loaded": False, "kind": "crash", "message": "the solution's process sent a malformed message while loading"}
    if not isinstance(message, dict) or not isinstance(message.get("loaded"), bool):
        return bad
    if message["loaded"]:
        names = message.get("names")
        if not isinstance(names, list):
            return bad
        return {"loaded": True, "names": [n for n in names if isinstance(n, str) and n.isidentifier()]}
    kind, text = message.get("kind"), message.get("message")
    if kind not in KINDS or not isinstance(text, str):
        return bad
    first, _, rest = text.strip().partition("\n")
    return {"loaded": False, "kind": kind, "message": cut(first, 300), "details": cut(text, MAX_DETAILS) if rest else ""}
