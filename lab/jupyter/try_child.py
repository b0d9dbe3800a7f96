"""The child process of a "try it" cell: load the agent fresh, make one call, and write down what happened.

Run as a script (python try_child.py --child) with the call on stdin; it imports nothing of the lab until it must.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path


def _child_main() -> None:
    """Run one call described on stdin and write its outcome (a dict of plain data) to the file it names."""
    import inspect
    import traceback
    import types

    payload = pickle.load(sys.stdin.buffer)
    path, function = payload["path"], payload["function"]
    shown = payload["shown"]  # the path as the learner knows it
    outcome: dict = {}

    def where(exc: BaseException) -> str:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        if not frames:
            return ""
        last = frames[-1]
        return f" (line {last.lineno} of {shown}: `{(last.line or '').strip()}`)"

    try:
        source = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        outcome["problem"] = f"Cannot read {shown}: {exc.strerror or exc}."
        return _write(payload["out"], outcome)
    module = types.ModuleType("agent")
    module.__file__ = path
    sys.modules["agent"] = module
    try:
        # Runs the learner's agent.py: this child process exists so that whatever it does stays here.
        exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
    except SyntaxError as exc:
        text = (exc.text or "").strip()
        outcome["problem"] = (
            f"{shown} has a syntax error on line {exc.lineno}: {exc.msg}." + (f"\n    {text}" if text else "")
            + "\nFix that line, save the file, and run this cell again."
        )
        return _write(payload["out"], outcome)
    except BaseException as exc:  # noqa: BLE001 - anything at import time is the learner's to fix
        outcome["problem"] = f"{shown} failed while loading: {type(exc).__name__}: {exc}{where(exc)}."
        return _write(payload["out"], outcome)

    fn = getattr(module, function, None)
    if not callable(fn):
        outcome["problem"] = f"{shown} has no function `{function}`. Did you rename or delete it?"
        return _write(payload["out"], outcome)
    kwargs = dict(payload["kwargs"])
    asks: list = []
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    if "ask" in params and "ask" not in kwargs and len(payload["args"]) <= params.index("ask"):
        import harness

        def ask(prompt, **options):
            reply = harness.ask(prompt, **options)
            asks.append((prompt, reply))
            return reply

        kwargs["ask"] = ask
    try:
        value = fn(*payload["args"], **kwargs)
    except NotImplementedError as exc:
        raised_in = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        stub = raised_in[-1].name if raised_in else function
        if not raised_in or traceback.extract_tb(exc.__traceback__)[-1].filename != path:
            outcome["problem"] = f"`{function}` raised NotImplementedError: {exc}{where(exc)}."
        else:
            step = _step_of_quietly(stub)
            which = f"step {step} (`{stub}`)" if step else f"`{stub}`"
            calls = f"`{function}` calls {which}, which" if stub != function else which[0].upper() + which[1:]
            outcome["problem"] = (
                f"{calls} is not started yet: it still raises NotImplementedError. "
                f"Write it in {shown}, save, and run this cell again."
            )
    except BaseException as exc:  # noqa: BLE001 - report the learner's exception as a message
        outcome["problem"] = f"`{function}` raised {type(exc).__name__}: {_cut(str(exc), 500)}{where(exc)}."
    else:
        try:
            pickle.dumps(value)
            outcome["value"] = value
        except Exception:
            outcome["shown_value"] = repr(value)
    outcome["asks"] = asks
    _write(payload["out"], outcome)


def _step_of_quietly(function: str):
    try:
        return _step_of(function)
    except Exception:
        return None


def _write(out: str, outcome: dict) -> None:
    with open(out, "wb") as f:
        pickle.dump(outcome, f)


def _steps() -> dict[int, tuple[str, str]]:
    """step number -> (function name, title), from the checks' own table."""
    import checks

    table = getattr(checks, "STEPS", None)
    if table is None:  # while the package's exports are being settled
        from checks.steps import STEPS as table
    return {s.number: (s.function, s.title) for s in table}


def _step_of(function: str) -> int | None:
    for number, (name, _) in _steps().items():
        if name == function:
            return number
    return None


def _cut(text: str, limit: int) -> str:
    """As checks.displays.cut: that module is not imported here, so the learner's code runs in a bare process."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters)"


if __name__ == "__main__" and sys.argv[1:] == ["--child"]:
    _child_main()
