"""The lab's side of the agent runner: `Agent` loads a learner's agent.py in a walled child and calls its functions.

Every surface that runs a learner's agent goes through here: `spec2code check` and `grade`, the notebooks' check
and try cells, `spec2code try` and `python lab/try_it.py`. A call's arguments and return value cross as plain
data (wire.py). When the function asks a model or runs tests, the request comes back here: a model handed to it
as an argument (the checks' ScriptedAsk) answers, or, for a try, the lab's own model (`LabModel`); runs go to the
`runs` function this Agent was given. So the lab judges only the prompts it was sent and the values it got back.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from harness import settings
from harness.errors import LabError

from . import live, loading, served, wire
from .lab_model import LabModel
from .link import ChildLink, WallsFailed
from .outcomes import (NO_MODEL, AgentError, CannotStart, Crashed, LoadFailed, NotStarted, Raised, TimedOut,
                       counted_words)
from .wire import Unsendable

__all__ = ["Agent", "AgentError", "CannotStart", "Crashed", "LabModel", "LoadFailed", "NotStarted", "Raised", "TimedOut",
           "Unsendable"]

LOAD_LIMIT = 10.0  # seconds agent.py may take to import
MAX_RUN_TIMEOUT = 10.0  # seconds: the most a run asked for by the agent may take
MAX_RUNS = 30  # runs one call may ask for; after that the agent is told it is looping
MAX_ASKS = 50  # prompts one call may send to any model (the checks' ScriptedAsk too); likewise
SERVED_LIMIT = 60.0  # seconds of asks and runs one call may have answered, beyond its own time limit
# Seconds of the runs one call asks for that are not counted as the call's own time (the lab's time to start and run
# them: an honest loop's few runs fit). Beyond them, runs count: a call that runs a hanging solution again and again
# ends near its limit, not 60 s later.
RUN_ALLOWANCE = 10.0
LOADER_FAILED = 127  # exit status of the system's loader when it cannot load the interpreter (ld.so)


class Agent:
    """One agent.py, loaded in a child process that is started on first use and restarted after a hang or crash.

    runs: what answers the agent's calls to harness.run, `runs(solution, tests, timeout)` (default: harness.run).
    model: answers the agent's calls to harness.ask itself (a LabModel, for a try); without one, only a model
        handed to the function as an argument answers (the first, for harness.ask).
    show_output: keep what the agent prints (in `.printed`) instead of throwing it away.
    """

    def __init__(self, path, *, runs=None, model=None, show_output: bool = False, probe: bool = False):
        self.path, self.probe = Path(path), probe
        self.runs, self.model, self.show_output = runs, model, show_output
        self.functions: list[str] = []
        self.source: str | None = None
        self.printed = ""
        self.served: list[dict] = []  # the runs answered during the last call: {"solution", "tests", "result"}
        self.isolation: dict = {}  # the walls the child got: {"level", "via", "lacks", "notes"} (see the sandbox)
        self._link: ChildLink | None = None
        self._next_id = 0
        self._default = model  # what answers harness.ask in the current call
        self._load_error: LoadFailed | None = None

    # --- life of the child -------------------------------------------------------------------------------

    def load(self) -> None:
        """Start the child and load agent.py in it; raise LoadFailed if it cannot be loaded."""
        if self._load_error is not None:
            raise self._load_error
        if self._link is not None:
            return
        try:
            self._start()
        except LoadFailed as exc:
            self._load_error = exc
            raise

    def _start(self) -> None:
        name = self.path.name
        self.source = loading.read(self.path)
        live.may_start()
        try:
            link = ChildLink(self.path, self._environment(), show_output=self.show_output,
                             isolation=settings.get("SPEC2CODE_ISOLATION"))
        except WallsFailed as exc:
            raise LoadFailed(f"{exc}.", loading.LAB_BUG) from None
        live.started(link)  # while a grading is interrupted, this stops it and raises Stopping
        self._link = link
        self.isolation = self._link.isolation
        try:
            message = self._link.receive(time.monotonic() + LOAD_LIMIT)
        except TimedOut:
            self.stop()
            raise LoadFailed(
                f"{name} took more than {LOAD_LIMIT:g} s to load.",
                "code at the top level of agent.py runs on import: move work into the functions",
            ) from None
        except Crashed as exc:
            python = getattr(self._link, "python", sys.executable)
            self.stop()
            if exc.exit_code == 70:
                raise LoadFailed("the lab's own modules did not load in the agent's process.", loading.LAB_BUG) from None
            if exc.exit_code == LOADER_FAILED and not self.probe and not _starts_here():
                raise CannotStart(python) from None
            why = f"exit code {exc.exit_code}" if exc.exit_code is not None else str(exc)
            raise LoadFailed(f"{name} ended its process while loading ({why}).", loading.EXIT_HINT,
                             exit_code=exc.exit_code) from None
        if isinstance(message.get("ready"), list):
            self.functions = [n for n in message["ready"] if isinstance(n, str)]
            return
        self.stop()
        raise loading.failed(name, wire.info(message.get("load_failed")))

    def _environment(self) -> dict:
        """The child's environment: none of the caller's variables (API keys stay here), only what Python needs."""
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        if isinstance(self.model, LabModel):
            env["SPEC2CODE_MODEL"] = self.model.backend  # which model answers, for code that wants to say so
        return env

    def stop(self) -> None:
        """Stop the child (and anything it started) if it is running."""
        link, self._link = self._link, None
        if link is not None:
            live.stopping(link)
            link.stop()
            self.printed += link.printed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # --- calls -------------------------------------------------------------------------------------------

    def call(self, function: str, *args, time_limit: float = 3.0, runs=None, stand_ins=None, **kwargs):
        """Run `function(*args, **kwargs)` in the child and return its value as plain data.

        A model among the arguments (a ScriptedAsk, a LabModel) becomes the `ask` the function receives. Raises
        Raised, NotStarted, TimedOut or Crashed (after which the next call starts a fresh child), LoadFailed, or
        Unsendable (a TypeError) for an argument that is not plain data. A LabError from the lab's own model (no
        key, a replay miss) stops the call and is raised as it is. `runs(solution, tests)`, if given, answers the
        function's calls to harness.run in this call (a check putting it in a case the sandbox rarely makes).
        `stand_ins` maps names of the agent's functions to what answers for them, in the child, in this call:
        `answer(args, kwargs, replies)` -> {"result": VALUE}, {"ask": PROMPT} (the child asks, and calls again with
        the reply added) or {"error": WORDS} (checks/stand_ins.py). Only what they return enters the child.
        """
        models: list = []

        def model_or_refuse(value, why):
            if callable(value) and (hasattr(value, "given") or isinstance(value, LabModel)):
                models.append(value)
                return {"$ask": len(models) - 1}
            raise Unsendable(f"a {type(value).__name__} cannot be sent to the child process ({why}): use plain data")

        encoded = {"args": wire.encode(list(args), model_or_refuse), "kwargs": wire.encode(kwargs, model_or_refuse)}
        self.load()
        self._next_id += 1
        self.served, self._asked = [], 0
        answers = getattr(self.model, "answers", None)  # the lab's model keeps out of a step given none
        self._default = None if answers is not None and not answers(function) else self.model
        stand_ins = dict(stand_ins or {})
        default = self._default if self._default is not None else (models[0] if models else None)
        request = {"id": self._next_id, "call": function, "args": encoded["args"], "kwargs": encoded["kwargs"],
                   "limit": time_limit, "reads": wire.reads(default, models),
                   **({"stand_ins": sorted(stand_ins)} if stand_ins else {})}
        deadline = time.monotonic() + time_limit
        served_until = deadline + SERVED_LIMIT  # however much is answered for it, a call ends by then
        allowance, counted = RUN_ALLOWANCE, 0.0  # run time still free; run time counted as the call's own
        stuck = []  # where the agent's code was when it had run long (the child's watcher): where a hang is
        try:
            self._link.send(request)
            while True:
                message = self._link.receive(deadline)
                if "stuck" in message:
                    stuck = _frames(message["stuck"]) if message.get("id") == self._next_id else stuck
                    continue
                if message.get("id") != self._next_id:
                    raise Crashed("it wrote to the lab's channel")
                if "return" in message:
                    return wire.received(message["return"])
                if "raised" in message:
                    info = wire.info(message["raised"])
                    if info["stub"] and info["type"] == "NotImplementedError" and info["in"] == function:
                        raise NotStarted(f"{function} still raises NotImplementedError", info)
                    raise Raised(function, info)
                started = time.monotonic()
                if "ask" in message or "ask_length" in message:
                    self._link.send(self._answer_ask(message, models))
                elif "run" in message:
                    self._link.send(self._answer_run(message, models, runs))
                elif "stand_in" in message:
                    self._link.send(self._answer_stand_in(message, stand_ins))
                else:
                    raise Crashed("it wrote to the lab's channel")
                spent = time.monotonic() - started  # time spent here is not the agent's, but for runs past the allowance
                if "run" in message:
                    free = min(spent, allowance)
                    allowance, counted = allowance - free, counted + spent - free
                    spent = free
                deadline = min(deadline + spent, served_until)
        except TimedOut:
            self.stop()
            raise TimedOut(f"{function} took more than {time_limit:g} s{counted_words(counted)}", limit=time_limit,
                           frames=stuck, counted=counted) from None
        except (Crashed, LabError, KeyboardInterrupt):
            self.stop()
            raise
        except OSError as exc:  # the child closed its end
            self.stop()
            raise Crashed(f"its process stopped talking ({exc.strerror})") from None
        finally:
            if self._link is not None:
                self._link.drain_output()
                self.printed, self._link.printed = self.printed + self._link.printed, ""

    def _answer_ask(self, message: dict, models: list) -> dict:
        handle, via = message.get("handle"), message.get("via")
        if via == "given" and isinstance(handle, int) and 0 <= handle < len(models):
            model = models[handle]
        elif via == "default" and (self._default is not None or models):
            model = self._default if self._default is not None else models[0]
        else:
            return {"id": self._next_id, "error": f"{NO_MODEL}: no model to ask here"}
        self._asked += 1
        if self._asked > MAX_ASKS:
            return {"id": self._next_id, "error": f"ask was called more than {MAX_ASKS} times in one call: is it in a "
                                                  "loop?"}
        prompt = wire.received(message.get("ask"))
        sample = message.get("sample")
        sample = sample if isinstance(sample, int) and not isinstance(sample, bool) and sample >= 0 else 0
        try:
            if "ask_length" in message:  # longer than the model's `reads`: refused before it was sent, by too_long
                getattr(model, "too_long", _reads_any_length)(message["ask_length"], via=via)
            if isinstance(model, LabModel):
                reply = model(prompt, via="given" if via == "given" else "default", sample=sample)
            else:
                reply = model(prompt, via="given" if via == "given" else "default")
        except RuntimeError as exc:
            return {"id": self._next_id, "error": str(exc)}
        return {"id": self._next_id, "reply": reply}

    def _answer_stand_in(self, message: dict, stand_ins: dict) -> dict:
        answer = stand_ins.get(message.get("stand_in"))
        if answer is None:
            return {"id": self._next_id, "error": "the lab has no stand-in for that function in this call"}
        said = answer(*(wire.received(message.get(key)) for key in ("args", "kwargs", "replies")))
        return {"id": self._next_id, **({"result": wire.encode(said["result"])} if "result" in said else said)}

    def _answer_run(self, message: dict, models: list, override=None) -> dict:
        args, timeout = message.get("run"), message.get("timeout")
        if not (isinstance(args, list) and len(args) == 2 and all(isinstance(a, str) for a in args)):
            return {"id": self._next_id, "error": "harness.run(solution_src, test_src) takes two strings"}
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
                return {"id": self._next_id, "error": "harness.run's timeout must be a positive number of seconds"}
            timeout = min(float(timeout), MAX_RUN_TIMEOUT)
        if len(self.served) >= MAX_RUNS:
            return {"id": self._next_id, "error": f"harness.run was called more than {MAX_RUNS} times in one call: "
                                                  "is it in a loop?"}
        scripted = override or next((m.runs for m in models if getattr(m, "runs", None)), None)
        try:
            if scripted is not None:
                result = scripted(args[0], args[1])
            else:
                runs = self.runs or served.harness_run
                result = runs(args[0], args[1], timeout)
            self.served.append({"solution": args[0], "tests": args[1], "result": result})
            return {"id": self._next_id, "result": wire.encode(result)}
        except Exception as exc:  # the lab's own sandbox failed: the agent sees an error, the lab keeps going
            return {"id": self._next_id, "error": f"harness.run failed: {exc}"}


def _starts_here() -> bool:
    """Whether an agent's process starts at all on this machine: an empty agent file, loaded as any other is. (An
    agent.py may end its own process with status 127 too: then this one starts, and the fault is that agent's.)"""
    with tempfile.TemporaryDirectory(prefix="spec2code-probe-") as folder:
        empty = Path(folder, "agent.py")
        empty.write_text("", encoding="utf-8")
        empty.chmod(0o644)
        with Agent(empty, probe=True) as probe:
            try:
                probe.load()
            except LoadFailed as exc:
                return exc.exit_code != LOADER_FAILED
    return True


def _frames(raw) -> list[tuple[str, int]]:
    return wire.info({"frames": raw})["frames"]


def _reads_any_length(length, via) -> None:
    raise RuntimeError("this model reads prompts of any length")
