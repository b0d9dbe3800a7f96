"""The solution's side of the sandbox: load the model's code behind the walls, then answer calls with plain values.

Loaded by the sandbox server (never through the `harness` package, which holds the held-out tests).
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import sys
import types

import cores
import linux
import walls
from text import cut
from wire import MAX_FRAME, Unsendable, decode, encode, frame, recv_frame, send_frame

# The lab's own modules in this process, gone before the solution runs: it sees only the standard library.
LAB_MODULES = ("pytest", "_pytest", "pluggy", "walls", "linux", "levels", "wire", "proxy", "tests_side", "reachable",
               "solution_side", "text", "syntax", "rootfs", "seccomp", "runner", "runs", "slots", "cgroups", "tidy",
               "pages", "cores")

# Those modules as the server named them once warm (see name_lab_modules), and how many modules it had then.
_NAMED: tuple[tuple[str, ...], int] = ((), -1)

EXTRA_MEMORY = 512 << 20  # address space a solution may add to what the warm process maps
SOLUTION_PROCESSES = 256  # tasks (processes and threads) the solution's user may have at once
# A returned value the wall will not carry back is refused, never raised as an exception of the solution's (a test
# expecting a ValueError or a TypeError would take the refusal for one).
TOO_LARGE = {"refused": f"the value is too large (over {MAX_FRAME >> 20} MB as JSON): return something smaller"}
MAX_ARGS = 8000  # bytes of an exception's arguments sent along, so the test process can make it again exactly
# Where the standard library is: found once in the server (a path resolved for each entry of sys.path took 0.2 ms of
# every solution's process).
STANDARD_LIBRARY = os.path.realpath(sys.base_prefix)


def start_solution_side(run, ladder, close):
    """Fork the solution's process (through a keeper where walls.begin needs one); return our socket to it, its
    output and the pid of our child (the solution's process, or its keeper), whose status says how it ended."""
    t_sock, s_sock = socket.socketpair()
    out_r, out_w = os.pipe()
    keeper = walls.fork_to_wall(ladder)
    if keeper == 0:
        try:
            t_sock.close()
            for other in close:
                other.close()
            os.close(out_r)
            linux.die_with_parent()
            walls.begin(ladder, run.solution_uid, run.solution_uid, fork=True)  # we go on as the solution's process
            solution_main(s_sock, out_w, run, ladder)
        except BaseException:  # noqa: BLE001
            if os.environ.get("SPEC2CODE_SANDBOX_DEBUG"):
                import traceback

                traceback.print_exc()
            os._exit(126)
    s_sock.close()
    os.close(out_w)
    return t_sock, out_r, keeper


def solution_main(sock, out_fd, run, ladder):
    """Run in S: wall in, load the solution, then answer calls until the socket closes. Never returns."""
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    low = 3
    for keep in sorted({sock.fileno(), linux.keeper_fd()} - {None}):  # how we watch our keeper: see walls.finish
        os.closerange(low, keep)
        low = keep + 1
    os.closerange(low, 1 << 16)
    # If the lab is installed inside the runtime's own folders, its files (the held-out tests among them)
    # would be visible from there: cover them.
    harness_dir = os.path.dirname(os.path.dirname(os.path.abspath(walls.__file__)))
    limits = dict(
        cpu_seconds=600,  # lowered to the run's own limit when the run arrives
        memory_bytes=linux.current_address_space() + EXTRA_MEMORY,
        file_bytes=8 << 20,
        processes=SOLUTION_PROCESSES,
        files=256,
    )
    walls.finish(ladder, run.solution_uid, run.solution_uid, mountpoint=os.path.join(run.machine.base_dir, "root"),
                 workdir="/work" if ladder.namespaces else run.solution_dir, hidden=[harness_dir],
                 proc=True, limits=limits)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    sys.stdin = open(0, "r", closefd=False)
    # What the solution sees of its surroundings: its own folder, the standard library.
    sys.path[:] = [p for p in sys.path if p.startswith(STANDARD_LIBRARY)]
    forget_lab_modules()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": os.getcwd(), "LANG": "C.UTF-8"})

    try:
        request = recv_frame(sock)
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


def name_lab_modules():
    """In the server, once warm: name the lab's modules it has loaded, for every solution's process to forget."""
    global _NAMED
    _NAMED = (tuple(lab_modules()), len(sys.modules))


def forget_lab_modules():
    """Take the lab's modules out of sys.modules. Those the server named, while no module has come or gone since:
    reading every module's name in each solution's process copied about 200 of the server's pages there."""
    names, count = _NAMED
    for name in names if len(sys.modules) == count else lab_modules():
        sys.modules.pop(name, None)


def lab_modules():
    return [m for m in sys.modules if m.split(".")[0] in LAB_MODULES]


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
        raise _LoadFailure("import error", f"{type(e).__name__}: {_safe_str(e, 300)}{_where(e)}") from None
    return module


def _describe(exc):
    """An exception as plain data: its classes, message, arguments (when they are plain data) and where it was raised."""
    names = [c.__name__ for c in type(exc).__mro__] if isinstance(exc, BaseException) else ["Exception"]
    info = {"mro": names, "message": _safe_str(exc), "where": _where(exc)}
    try:
        args = encode(list(exc.args))
        if len(frame(args)) <= MAX_ARGS:
            info["args"] = args
    except BaseException:  # noqa: BLE001 - arguments that cannot cross stay behind; the message is enough
        pass
    return info


def _safe_str(exc, limit=2000):
    try:
        return cut(str(exc), limit)
    except BaseException:  # noqa: BLE001
        return "(message could not be shown)"


def _where(exc):
    tb, line = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "solution.py":
            line = tb.tb_lineno
        tb = tb.tb_next
    return f" (solution.py, line {line})" if line else ""


def _surely_too_large(value):
    """Whether a returned value's length alone puts its JSON over MAX_FRAME: then it is refused before encoding it,
    which for a list of millions of items would take seconds of the run."""
    kind = type(value)
    if kind is str:
        return str.__len__(value) > MAX_FRAME
    if kind in (bytes, list, tuple, set, frozenset, dict):  # two bytes an item at least: the item and a comma
        return kind.__len__(value) > MAX_FRAME // 2
    return False


def _carried(value):
    """The reply for a value the solution returned: the value as plain data, or why the wall refuses it."""
    if _surely_too_large(value):
        return TOO_LARGE
    try:
        return {"value": encode(value)}
    except Unsendable as e:
        return {"refused": str(e)}
    except MemoryError:
        return TOO_LARGE


def serve_calls(sock, module):
    while True:
        try:
            request = recv_frame(sock)
        except EOFError:
            return
        if isinstance(request, dict) and "core" in request:  # the test process keeps to one core now: so do we
            cores.pin(request["core"])
        try:
            func = getattr(module, request["call"])
            args = decode(request["args"])
            kwargs = decode(request["kwargs"])
            value = func(*args, **kwargs)
        except MemoryError:
            reply = {"raise": {"mro": ["MemoryError"], "message": "the solution ran out of memory"}}
        except BaseException as e:  # noqa: BLE001 - report whatever the solution raised
            reply = {"raise": _describe(e)}
        else:
            reply = _carried(value)
        try:
            data = frame(reply)
        except BaseException:  # noqa: BLE001
            data = frame({"refused": "the value could not be sent"})
        if len(data) > MAX_FRAME:
            data = frame(TOO_LARGE)
        sock.sendall(data)
