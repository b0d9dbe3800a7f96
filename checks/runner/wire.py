"""The agent runner's wire: what the lab and a learner's agent.py say to each other, and how values and exceptions
cross as plain data. Both sides import this file; frames are the lab's one format (harness.sandbox.wire).

Messages, one frame each:
    child -> lab   {"ready": [names]}  {"load_failed": INFO}  {"id", "return": VALUE}  {"id", "raised": INFO}
                   {"id", "ask": PROMPT, "via": "given"|"default", "handle", "sample"}  {"id", "run": [SOL, TESTS], "timeout"}
    lab -> child   {"id", "call": NAME, "args", "kwargs"}  {"id", "reply"}  {"id", "result"}  {"id", "error"}
VALUE is plain JSON with tags: {"$tuple": [...]}, {"$dict": {...}}, {"$float": "nan"}, {"$type": NAME} for a value
that cannot cross, {"$ask": N} for the N-th model handed to the agent. INFO describes an exception (`describe`).
"""

from __future__ import annotations

import os
import traceback

from harness.sandbox.wire import FrameReader, frame
from harness.text import clean, cut

MAX_MESSAGE = 16 << 20  # bytes in one message; a larger value is refused ("too much to check")
MAX_DEPTH = 40  # nesting of lists and dicts in a value
MAX_TEXT = 2000  # characters of an exception's message kept

__all__ = ["FrameReader", "MAX_MESSAGE", "Opaque", "Unsendable", "decode", "describe", "encode", "frame", "info"]


class Unsendable(TypeError):
    """A value that cannot cross the wall: only plain data does (numbers, strings, lists, tuples, dicts, None)."""


class Opaque:
    """A value that came back but is not plain data, known only by its type's name."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Opaque) and other.type_name == self.type_name

    __hash__ = None


def encode(value, other, depth: int = 0):
    """`value` as JSON-able data; `other(value, why)` stands in for what is not plain data (or raises)."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if value == value and abs(value) != float("inf") else {"$float": repr(value)}
    if depth > MAX_DEPTH:
        return other(value, "nested too deeply")
    if kind is list:
        return [encode(v, other, depth + 1) for v in value]
    if kind is tuple:
        return {"$tuple": [encode(v, other, depth + 1) for v in value]}
    if kind is dict:
        if not all(type(k) is str for k in value):
            return other(value, "a dict with keys that are not strings")
        return {"$dict": {k: encode(v, other, depth + 1) for k, v in value.items()}}
    return other(value, "not plain data")


def decode(data, tagged, depth: int = 0):
    """The value `encode` sent; `tagged(mapping)` turns any other tagged mapping ($type, $ask) into a value."""
    if depth > MAX_DEPTH + 2:
        return Opaque("value nested too deeply")
    if isinstance(data, list):
        return [decode(v, tagged, depth + 1) for v in data]
    if isinstance(data, dict):
        if isinstance(data.get("$dict"), dict):
            return {str(k): decode(v, tagged, depth + 1) for k, v in data["$dict"].items()}
        if isinstance(data.get("$tuple"), list):
            return tuple(decode(v, tagged, depth + 1) for v in data["$tuple"])
        if data.get("$float") in ("nan", "inf", "-inf"):
            return float(data["$float"])
        return tagged(data)
    return data


def describe(exc: BaseException, agent: str, function: str | None = None) -> dict:
    """An exception raised by agent.py, as plain data: its type and message; the innermost line of agent.py it
    passed (`line`, `source`, and the function it is in, `in`); `stub`: NotImplementedError raised by agent.py's
    own code there (a stub, or a function that calls one); `exit`: SystemExit's code."""
    try:
        message = str(exc)
    except BaseException:  # noqa: BLE001 - a message that cannot even be made
        message = "(the exception's message could not be shown)"
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(agent)]
    line = source = where = None
    if isinstance(exc, SyntaxError) and exc.filename and os.path.abspath(exc.filename) == os.path.abspath(agent):
        line, source = exc.lineno, (exc.text or "").strip()
        message = exc.msg
    elif mine:
        line, source, where = mine[-1].lineno, (mine[-1].line or "").strip(), mine[-1].name
    stub = isinstance(exc, NotImplementedError) and bool(frames) and frames[-1] in mine
    described = {"type": type(exc).__name__, "message": cut(message, MAX_TEXT), "line": line, "source": source,
                 "in": where, "stub": stub, "frames": [[f.name, f.lineno] for f in mine[-8:]]}
    if isinstance(exc, SystemExit):
        described["exit"] = exc.code if isinstance(exc.code, (int, str)) or exc.code is None else repr(exc.code)
    return described


def info(raw) -> dict:
    """An exception description from the other side, checked and made safe to show (the child may send anything)."""
    raw = raw if isinstance(raw, dict) else {}

    def text(key, limit):
        value = raw.get(key)
        return clean(cut(str(value), limit)) if isinstance(value, str) and value else None

    line = raw.get("line")
    exit_code = raw.get("exit")
    frames = raw.get("frames") if isinstance(raw.get("frames"), list) else []
    frames = [(clean(cut(f[0], 100)), f[1]) for f in frames[-8:]
              if isinstance(f, list) and len(f) == 2 and isinstance(f[0], str) and type(f[1]) is int]
    return {
        "frames": frames,
        "type": text("type", 100) or "an exception",
        "message": text("message", MAX_TEXT) or "",
        "line": line if isinstance(line, int) and not isinstance(line, bool) else None,
        "source": text("source", 200),
        "in": text("in", 100),
        "stub": raw.get("stub") is True,
        "exit": exit_code if isinstance(exit_code, int) and not isinstance(exit_code, bool) else text("exit", 100),
    }
