"""The agent runner's wire: what the lab and a learner's agent.py say to each other, and how exceptions cross as
plain data. Both sides import this file; frames and values are the lab's one format (harness.sandbox.wire).

Messages, one frame each:
    child -> lab   {"ready": [names]}  {"load_failed": INFO}  {"id", "return": VALUE}  {"id", "raised": INFO}
                   {"id", "ask": PROMPT, "via": "given"|"default", "handle", "sample"}  {"id", "run": [SOL, TESTS], "timeout"}
                   {"id", "ask_length": N, "via", "handle"} (a prompt longer than the model's "reads", not sent)
                   {"id", "stand_in": NAME, "args", "kwargs", "replies"}  {"id", "stuck": [[FUNCTION, LINE], ...]}
    lab -> child   {"id", "call": NAME, "args", "kwargs", "limit", "reads", "stand_ins"?}  {"id", "reply"}  {"id", "result"}
                   {"id", "ask": PROMPT} (to a stand_in: ask, then call again)  {"id", "error"}
VALUE, args, kwargs and result are plain data in the one codec. Where the sandbox refuses what is not plain data,
this wall names it: the child sends {"$type": NAME} (`named`), an Opaque on the lab's side, so a check can say
what came back; the lab sends the N-th model it hands the agent as {"$ask": N}, and the child a model it hands a
stand-in as STAND_IN_ASK. A call's "reads" is {"default": LONGEST, "given": [LONGEST of model N, ...]}: the
longest prompt each model answers (null: any), so that the child refuses a longer one without sending it, saying
only its length ("ask_length"). INFO describes an exception.
"""

from __future__ import annotations

import os
import traceback

from harness.sandbox.wire import FrameReader, Unsendable, decode, encode, frame
from harness.text import clean, cut

MAX_MESSAGE = 16 << 20  # bytes in one message; a larger value is refused ("too much to check")
MAX_TEXT = 2000  # characters of an exception's message kept
STAND_IN_ASK = {"$ask": "given"}  # in a stand-in's arguments: the model its caller handed it (it asks in the child)

__all__ = ["FrameReader", "MAX_MESSAGE", "Opaque", "Unsendable", "decode", "describe", "encode", "frame", "info",
           "longest", "named", "opaque", "reads", "received", "STAND_IN_ASK"]


class Opaque:
    """A value that came back but is not plain data, known only by its type's name."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Opaque) and other.type_name == self.type_name

    def __hash__(self) -> int:  # it may stand in a set, or as a dict's key
        return hash(self.type_name)


def reads(default, models: list) -> dict:
    """A call's "reads": the longest prompt each model answers (a model's `reads`; None: any length)."""

    def longest_of(model):
        most = getattr(model, "reads", None)
        return most if type(most) is int else None

    return {"default": longest_of(default), "given": [longest_of(model) for model in models]}


def longest(reads, via: str, handle) -> int | None:
    """In the child: the longest prompt answered by the model an `ask` goes to, as its call's "reads" say."""
    if not isinstance(reads, dict):
        return None
    most = reads.get("default") if via == "default" else None
    given = reads.get("given")
    if via == "given" and isinstance(given, list) and type(handle) is int and 0 <= handle < len(given):
        most = given[handle]
    return most if type(most) is int else None


def named(value, why: str) -> dict:
    """The child's `other`: what is not plain data crosses as its type's name."""
    return {"$type": "value nested too deeply" if why == "nested too deeply" else type(value).__name__}


def opaque(data: dict) -> Opaque:
    """The lab's `tagged`: a value the child named, as an Opaque."""
    return Opaque(str(data.get("$type", "unknown value"))[:100])


def received(data):
    """A value from the child (which may send anything): plain data, with an Opaque for what it named or for what
    cannot be read."""
    try:
        return decode(data, opaque)
    except ValueError:
        return Opaque("value that cannot be read")


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
