"""The child's side of the agent runner: load a learner's agent.py in this process and run its functions on request.

Started by parent.py (through walls.py) as `python -I child.py ROOT AGENT REQUEST_FD REPLY_FD [--show-output]`. It
speaks frames on two inherited pipes, never on stdout, which the learner's prints may use. Its calls to
`harness.ask` and `harness.run` are answered by the lab in the parent process, so the parent sees every prompt and
every run. Nothing this process says about itself decides a grade: the parent judges only what it is sent.
"""

import os
import sys

LAB_BROKEN = 70  # exit status when the lab's own modules do not import here (a problem in the lab, not the agent)


def main(root: str, agent: str, request_fd: int, reply_fd: int, show_output: bool) -> None:
    sys.path.insert(0, root)
    try:
        import harness
        from harness.files import decode_source
        from harness.sandbox import linux

        wire = _beside("wire")  # by path: the rest of the checks package is not this process's to see
    except BaseException:  # noqa: BLE001 - nothing to speak with: the parent reads the exit status
        os._exit(LAB_BROKEN)
    linux.die_with_parent()
    request_fd, reply_fd = _out_of_sight(request_fd), _out_of_sight(reply_fd)
    sys.argv = [agent]  # the agent has no business with the lab's command line
    if show_output:
        sys.stdout.reconfigure(line_buffering=True)  # what was printed is there even if the call is stopped
    else:
        _silence_output()
    link = _Link(request_fd, reply_fd, wire, agent)
    current = {"id": None, "reads": None}

    def model(via, handle=None):
        def ask(prompt, *, sample=0):
            most = wire.longest(current["reads"], via, handle)
            if most is not None and isinstance(prompt, str) and len(prompt) > most:
                # Said, not sent: megabytes of prompt could take longer than the call's time on a busy machine.
                link.send({"id": current["id"], "ask_length": len(prompt), "via": via, "handle": handle})
            else:
                link.send({"id": current["id"], "ask": wire.encode(prompt, wire.named), "via": via, "handle": handle,
                           "sample": wire.encode(sample, wire.named)})
            answer = link.receive()
            if "error" in answer:
                raise RuntimeError(answer["error"])
            return answer["reply"]

        ask.__name__ = ask.__qualname__ = "ask"
        return ask

    def run(solution_src, test_src, *, timeout=None):
        link.send({"id": current["id"], "run": [wire.encode(solution_src, wire.named),
                   wire.encode(test_src, wire.named)], "timeout": wire.encode(timeout, wire.named)})
        answer = link.receive()
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return wire.decode(answer["result"])

    _install(harness, model("default"), run)
    try:
        with open(agent, "rb") as f:
            source = decode_source(f.read(), os.path.basename(agent))
        module = _load(source, agent)
    except BaseException as exc:  # noqa: BLE001 - whatever loading raised is the learner's to fix
        link.send({"load_failed": wire.describe(exc, agent)})
        return
    functions = [name for name, value in vars(module).items() if callable(value) and not name.startswith("_")]
    link.send({"ready": functions})

    def tagged(data):
        return model("given", data["$ask"]) if isinstance(data.get("$ask"), int) else wire.opaque(data)

    def lab(message):
        link.send({"id": current["id"], **message})
        answer = link.receive()
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    while True:
        request = link.receive()
        current["id"], current["reads"] = request.get("id"), request.get("reads")
        link.watch(current["id"], request.get("limit"))
        try:
            args = wire.decode(request["args"], tagged)
            kwargs = wire.decode(request["kwargs"], tagged)
            function = getattr(module, request["call"])
            kept = _stand_in(module, request.get("stand_ins"), lab, wire)
            try:
                # The one line that runs the learner's code for the lab; what it returns is only data.
                value = function(*args, **kwargs)
            finally:
                _put_back(module, kept)
            link.send({"id": current["id"], "return": wire.encode(value, wire.named)})
        except BaseException as exc:  # noqa: BLE001 - an exit() or a too-large value is a result like any other
            link.send({"id": current["id"], "raised": wire.describe(exc, agent, request.get("call"))})


def _stand_in(module, names, lab, wire) -> dict:
    """Put, in the agent's module, a stand-in for each function named (unfinished steps, while a step that needs
    them is graded): the lab answers each call with the reference's value, so this process gets what the reference
    returns, never its code. When the reference asks a model, it asks here, through the `ask` the call was given
    (the learner's own, which may wrap the lab's) or harness.ask. Returns what the names held before."""
    import harness

    kept = {}
    for name in names if isinstance(names, list) else []:
        if not isinstance(name, str) or not name.isidentifier():
            continue
        kept[name] = module.__dict__.get(name, _ABSENT)

        def stand_in(*args, _name=name, **kwargs):
            asks = [value for value in [*args, *kwargs.values()] if callable(value)]
            model = wire.STAND_IN_ASK
            sent = {"args": wire.encode([model if callable(a) else a for a in args], wire.named),
                    "kwargs": wire.encode({k: model if callable(v) else v for k, v in kwargs.items()}, wire.named)}
            replies = []
            while True:
                answer = lab({"stand_in": _name, **sent, "replies": wire.encode(replies, wire.named)})
                if "result" in answer:
                    return wire.decode(answer["result"])
                replies.append((asks[0] if asks else harness.ask)(answer.get("ask")))

        stand_in.__name__ = stand_in.__qualname__ = name
        module.__dict__[name] = stand_in
    return kept


_ABSENT = object()


def _put_back(module, kept: dict) -> None:
    for name, value in kept.items():
        if value is _ABSENT:
            module.__dict__.pop(name, None)
        else:
            module.__dict__[name] = value


def _beside(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"agent_runner_{name}", os.path.join(os.path.dirname(__file__), f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Link:
    """The child's ends of the two pipes: one frame out, one frame in. While a call runs, a watcher looks at where
    the agent's code is once it has run half its time limit without waiting for the lab (then every quarter) and
    sends {"id", "stuck": [[function, line], ...]}: a call stopped for a hang then names the loop it was in."""

    def __init__(self, request_fd, reply_fd, wire, agent):
        import threading

        self.request_fd, self.reply_fd, self.wire = request_fd, reply_fd, wire
        self.reader = wire.FrameReader(wire.MAX_MESSAGE)
        self.pending = []
        self.lock, self.main = threading.Lock(), threading.get_ident()
        self.call, self.limit, self.since, self.looked, self.agent = None, None, None, 0.0, agent
        threading.Thread(target=self._watch, name="spec2code-watch", daemon=True).start()

    def watch(self, call, limit):
        import time

        ok = isinstance(limit, (int, float)) and not isinstance(limit, bool) and limit > 0
        self.call, self.limit, self.since = call, (limit if ok else None), time.monotonic()

    def send(self, message, waiting=True):
        data = self.wire.frame(message)
        if len(data) > self.wire.MAX_MESSAGE:
            what = "returned" if "return" in message else "sent to ask or run"
            raise ValueError(f"{what} {len(data) >> 20} MB of data, too much to check")
        with self.lock:
            if waiting:  # from here until an answer comes, the time is the lab's
                self.since = None
            view = memoryview(data)
            while view:
                view = view[os.write(self.reply_fd, view):]

    def receive(self):
        import time

        while not self.pending:
            chunk = os.read(self.request_fd, 1 << 16)
            if not chunk:
                os._exit(0)  # the lab has gone: nothing left to do
            self.pending += self.reader.feed(chunk)
        self.since = time.monotonic()
        return self.pending.pop(0)

    def _watch(self):
        import time
        import traceback

        while True:
            time.sleep(0.1)
            since, limit = self.since, self.limit
            now = time.monotonic()
            if since is None or limit is None or now - since < limit / 2 or now - self.looked < limit / 4:
                continue
            frame = sys._current_frames().get(self.main)
            stack = traceback.extract_stack(frame) if frame is not None else []
            mine = [[f.name, f.lineno] for f in stack if os.path.abspath(f.filename) == os.path.abspath(self.agent)]
            self.looked = now
            try:
                self.send({"id": self.call, "stuck": mine[-8:]}, waiting=False)
            except (OSError, ValueError):
                return


def _out_of_sight(fd: int) -> int:
    """The same pipe under a number of its own, not the one on the command line, so code that writes to "the
    grader's channel" by that number writes nowhere. (Code that tries every number only breaks its own run.)"""
    import fcntl
    import random
    import resource

    highest = min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1024) - 8
    try:
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, random.randrange(16, max(highest, 17)))
    except OSError:
        return fd
    os.close(fd)
    return moved


# Where the harness defines the `ask` and `run` the lab answers for; any harness module may hold them from there.
REPLACED = {"ask": "harness.model", "run": "harness.sandbox.caller"}


def _install(harness, ask, run):
    """Point every `ask` and `run` the harness exports at the lab, before the agent can import them: the package's
    now, and each harness module's as it loads (the package imports its modules on first use, so most never do)."""
    lab = {"ask": ask, "run": run}
    for name, module in list(sys.modules.items()):
        if name.startswith("harness."):
            _point_at_lab(module, lab)
    harness.ask, harness.run = ask, run
    sys.meta_path.insert(0, _LabFirst(lab))


def _point_at_lab(module, lab: dict) -> None:
    for key, value in lab.items():
        found = module.__dict__.get(key)
        if getattr(found, "__module__", None) == REPLACED[key] and getattr(found, "__qualname__", None) == key:
            module.__dict__[key] = value


class _LabFirst:
    """An import hook: a harness module imported after the agent's process started has its `ask` and `run` pointed
    at the lab as soon as it has run."""

    def __init__(self, lab: dict):
        self.lab = lab

    def find_spec(self, name, path=None, target=None):
        if not name.startswith("harness."):
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            _point_at_lab(module, self.lab)

        spec.loader.exec_module = exec_module
        return spec


def _load(source: str, path: str):
    """The lab's one loader of an agent.py: compile the text read as Python reads it, run it as module `agent`."""
    import types

    code = compile(source, path, "exec", dont_inherit=True)
    module = types.ModuleType("agent")
    module.__file__ = path
    sys.modules["agent"] = module
    exec(code, module.__dict__)  # WARNING: runs the learner's code (in this child, behind the walls)
    return module


def _silence_output():
    """The learner's prints go nowhere: fd 1 and 2 point at /dev/null, sys.stdout and sys.stderr too."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), "--show-output" in sys.argv[5:])
