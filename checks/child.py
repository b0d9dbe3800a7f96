"""The child side of grading: load a learner's agent.py in this process and run its functions on request.

Started by checks/boundary.py as `python -I child.py ROOT AGENT REQUEST_FD REPLY_FD`. It speaks JSON lines on two
inherited pipes (never on stdout, which the learner's prints may use). Calls to `harness.ask` and `harness.run`
are served by the grader in the parent process, so the parent sees every prompt and every run. Nothing this
process says about itself decides a grade: the parent judges only the prompts it is sent and the values returned.
"""

import json
import os
import sys
import traceback

MAX_MESSAGE = 8 * 2**20  # bytes in one message; a bigger return value is reported as too large
MAX_DEPTH = 40  # nesting of lists and dicts in a returned value


def main(root, agent, request_fd, reply_fd):
    requests = os.fdopen(request_fd, "rb")
    replies = os.fdopen(reply_fd, "wb")

    def send(message):
        data = json.dumps(message).encode() + b"\n"
        if len(data) > MAX_MESSAGE:
            what = "returned" if "return" in message else "sent to ask or run"
            raise ValueError(f"{what} {len(data) // 2**20} MB of data, too much to check")
        replies.write(data)
        replies.flush()

    def receive():
        line = requests.readline()
        if not line:
            os._exit(0)  # the grader has gone: nothing left to do
        return json.loads(line)

    sys.path.insert(0, root)
    try:
        import harness
    except BaseException as exc:  # the lab itself is broken: say so rather than blame the learner
        send({"load_failed": {"type": type(exc).__name__, "message": f"the lab's harness did not import: {exc}"}})
        return
    _die_with_parent()
    _silence_output()
    current = {"id": None}

    def proxy(kind, handle=None):
        def ask(prompt, *args, **kwargs):
            send({"id": current["id"], "ask": _encode(prompt), "via": kind, "handle": handle})
            answer = receive()
            if "error" in answer:
                raise RuntimeError(answer["error"])
            return answer["reply"]

        ask.__name__ = ask.__qualname__ = "ask"
        return ask

    def run(solution_src, test_src, *, timeout=None):
        send({"id": current["id"], "run": [_encode(solution_src), _encode(test_src)], "timeout": _encode(timeout)})
        answer = receive()
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["result"]

    _install(harness, proxy("default"), run)
    try:
        module = _load(agent)
    except BaseException as exc:
        send({"load_failed": _describe(exc, agent)})
        return
    functions = [name for name, value in vars(module).items() if callable(value) and not name.startswith("_")]
    send({"ready": functions})

    while True:
        request = receive()
        current["id"] = request["id"]
        try:
            args = [_decode(a, proxy) for a in request["args"]]
            kwargs = {k: _decode(v, proxy) for k, v in request["kwargs"].items()}
            function = getattr(module, request["call"])
            # The one line that runs the learner's code on the grader's behalf; its result is only data.
            value = function(*args, **kwargs)
            send({"id": request["id"], "return": _encode(value)})
        except BaseException as exc:  # noqa: B036 - an exit() or a too-large value is a result like any other
            send({"id": request["id"], "raised": _describe(exc, agent, request["call"])})


def _install(harness, ask, run):
    """Point every `ask` and `run` the harness exports at the grader, before the agent can import them."""
    real_ask, real_run = harness.ask, harness.run
    for name, module in list(sys.modules.items()):
        if name == "harness" or name.startswith("harness."):
            if getattr(module, "ask", None) is real_ask:
                module.ask = ask
            if getattr(module, "run", None) is real_run:
                module.run = run


def _load(path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("agent", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["agent"] = module
    spec.loader.exec_module(module)
    return module


def _silence_output():
    """The learner's prints go nowhere: fd 1 and 2 point at /dev/null, sys.stdout and sys.stderr too."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")


def _die_with_parent():
    try:
        from harness.sandbox import walls

        walls.die_with_parent()
    except Exception:
        pass


def _describe(exc, agent, function=None):
    """An exception as plain data: type, message, the line of agent.py it came from, and if it is a stub."""
    try:
        message = str(exc)
    except BaseException:
        message = "(the exception's message could not be shown)"
    frames = traceback.extract_tb(exc.__traceback__)
    if isinstance(exc, SyntaxError) and exc.filename == agent:
        line = exc.lineno
    else:
        mine = [f for f in frames if f.filename == agent]
        line = mine[-1].lineno if mine else None
    innermost = frames[-1] if frames else None
    stub = (
        isinstance(exc, NotImplementedError)
        and innermost is not None
        and innermost.filename == agent
        and innermost.name == function
    )
    where = next((f.name for f in reversed(frames) if f.filename == agent), None)
    if isinstance(exc, SystemExit):
        message = f"exit({exc.code!r})" if exc.code is not None else "exit()"
    return {"type": type(exc).__name__, "message": message[:2000], "line": line, "in": where, "stub": stub}


def _encode(value, depth=0):
    """Plain data crosses as JSON; tuples and dicts are tagged; anything else is only its type's name."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if value == value and abs(value) != float("inf") else {"$float": repr(value)}
    if depth > MAX_DEPTH:
        return {"$type": "value nested too deeply"}
    if kind is list:
        return [_encode(v, depth + 1) for v in value]
    if kind is tuple:
        return {"$tuple": [_encode(v, depth + 1) for v in value]}
    if kind is dict:
        if not all(type(k) is str for k in value):
            return {"$type": "dict with keys that are not strings"}
        return {"$dict": {k: _encode(v, depth + 1) for k, v in value.items()}}
    return {"$type": kind.__name__}


def _decode(value, proxy):
    if isinstance(value, list):
        return [_decode(v, proxy) for v in value]
    if isinstance(value, dict):
        if "$ask" in value:
            return proxy("given", value["$ask"])
        if "$dict" in value:
            return {k: _decode(v, proxy) for k, v in value["$dict"].items()}
        if "$tuple" in value:
            return tuple(_decode(v, proxy) for v in value["$tuple"])
    return value


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
