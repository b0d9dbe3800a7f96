"""The lab's one wire format: length-prefixed JSON frames, and the one codec for plain values crossing a wall.

Both sides of every wall import this file: the sandbox's caller, server, test process and solution process (the
sandbox's processes load it by path, without the `harness` package), and both sides of the agent runner (through
checks/runner/wire.py, which adds what that wall says about exceptions).

Plain data is the same on every wall: None, bool, int (any size), float (nan and the infinities too), str (any code
points, lone surrogates and NUL too), bytes, complex, and lists, tuples, sets, frozensets and dicts of plain data,
nested up to MAX_DEPTH. A subclass crosses as its base type: its content crosses, never its methods (a rigged
__eq__ stays behind). In a frame, None, bool, int, float, str and list are JSON as they are; the rest are one-key
objects: {"$tuple": [...]}, {"$set": [...]}, {"$frozenset": [...]}, {"$dict": [[key, value], ...]},
{"$bytes": HEX}, {"$complex": [REPR, REPR]}, {"$float": "nan" | "inf" | "-inf"}, {"$int": HEX} for an int
longer than JSON's digits may be. Decoding builds only these types: nothing the other side sends runs code here.

The walls differ only in what becomes of a value that is not plain data, `encode`'s `other(value, why)`: the
sandbox refuses it (`refuse`, an Unsendable that a test sees as a TypeError), the agent runner names it by its
type and hands models over as handles (checks/runner/wire.py). Each wall carries exceptions in its own message.
"""

from __future__ import annotations

import json
import math
import os
import struct

MAX_FRAME = 1 << 20  # largest value a solution may return, in bytes of JSON
MAX_DEPTH = 50  # nesting of containers in a value; a deeper one is not plain data
_HEADER = struct.Struct(">I")
_BIG = 3000  # bits: a longer int crosses in hex (Python refuses to read or write ints of over 4300 digits)
_SEQUENCES = {tuple: "$tuple", set: "$set", frozenset: "$frozenset"}
_BUILDS = {tag: kind for kind, tag in _SEQUENCES.items()}
_TAGS = (*_BUILDS, "$dict", "$bytes", "$int", "$float", "$complex")


class Unsendable(TypeError):
    """A value that cannot cross a wall: only plain data does."""


def refuse(value, why: str):
    """The sandbox's `other`: what is not plain data does not cross."""
    kind = type(value).__name__
    article = "an" if kind[:1] in "AEIOUaeiou" else "a"
    raise Unsendable(f"{article} {kind} object cannot cross the wall ({why}): use plain data, such as numbers, "
                     "strings, and lists, tuples, sets and dicts of them")


def encode(value, other=refuse, depth: int = 0):
    """`value` as JSON-able data; `other(value, why)` stands in for what is not plain data (or raises)."""
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        value = int.__int__(value)
        return value if value.bit_length() <= _BIG else {"$int": format(value, "x")}
    if isinstance(value, float):
        value = float.__float__(value)
        return value if math.isfinite(value) else {"$float": repr(value)}
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return {"$bytes": bytes.hex(value)}
    if isinstance(value, complex):
        return {"$complex": [repr(complex.real.__get__(value)), repr(complex.imag.__get__(value))]}
    if not isinstance(value, (list, tuple, set, frozenset, dict)):
        return other(value, "not plain data")
    if depth >= MAX_DEPTH:
        return other(value, "nested too deeply")
    if isinstance(value, dict):
        return {"$dict": [[encode(k, other, depth + 1), encode(v, other, depth + 1)] for k, v in dict.items(value)]}
    kind = next(k for k in (list, tuple, set, frozenset) if isinstance(value, k))
    items = [encode(v, other, depth + 1) for v in kind.__iter__(value)]
    return items if kind is list else {_SEQUENCES[kind]: items}


def decode(data, tagged=None, depth: int = 0):
    """The value `encode` sent. A one-key object that is none of its tags (what an `other` stood in with) is
    `tagged(object)`; anything else `encode` never makes is a ValueError, and so is that without `tagged`."""
    if depth > MAX_DEPTH:
        raise ValueError("a value nested too deeply")
    kind = type(data)
    if data is None or kind in (bool, int, float, str):
        return data
    if kind is list:
        return [decode(v, tagged, depth + 1) for v in data]
    if kind is not dict or len(data) != 1:
        raise ValueError("malformed value")
    ((tag, body),) = data.items()
    if tag not in _TAGS:
        if tagged is None:
            raise ValueError("malformed value")
        return tagged(data)
    try:
        return _build(tag, body, lambda item: decode(item, tagged, depth + 1))
    except TypeError:  # a set member or a dict key that cannot be hashed
        raise ValueError("malformed value") from None


def _build(tag: str, body, item):
    """The value of one tagged object, its items decoded by `item`; ValueError for a body `encode` never makes."""
    if tag in _BUILDS and type(body) is list:
        return _BUILDS[tag](item(v) for v in body)
    if tag == "$dict" and type(body) is list and all(type(pair) is list and len(pair) == 2 for pair in body):
        return {item(k): item(v) for k, v in body}
    if tag == "$bytes" and type(body) is str:
        return bytes.fromhex(body)
    if tag == "$int" and type(body) is str:
        return int(body, 16)
    if tag == "$float" and body in ("nan", "inf", "-inf"):
        return float(body)
    if tag == "$complex" and type(body) is list and len(body) == 2 and all(type(part) is str for part in body):
        return complex(float(body[0]), float(body[1]))
    raise ValueError("malformed value")


def frame(obj) -> bytes:
    """One message as it travels: its length, then its JSON."""
    data = json.dumps(obj).encode()
    return _HEADER.pack(len(data)) + data


def unframe(data: bytes):
    """The message in one whole frame (as `frame` made it); ValueError if it is not exactly one frame."""
    if len(data) < _HEADER.size or _HEADER.unpack(data[: _HEADER.size])[0] != len(data) - _HEADER.size:
        raise ValueError("not one whole frame")
    return _loads(data[_HEADER.size :])


def send_frame(sock, obj, fds=()):
    """Send one message, with file descriptors alongside when `fds` is given (a UNIX socket)."""
    if fds:
        import socket  # here: an agent's process speaks over pipes, and need not load it

        socket.send_fds(sock, [frame(obj)], list(fds))
    else:
        sock.sendall(frame(obj))


def recv_frame(sock):
    return _loads(recv_exact(sock, _HEADER.unpack(recv_exact(sock, _HEADER.size))[0]))


def _loads(data):
    """JSON from the other side of a wall: anything malformed, deep nesting included, is a ValueError."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("a message nested too deeply") from None


def recv_frame_fds(sock, max_fds: int, max_size: int = 1 << 16):
    """One small message sent with file descriptors: (message, fds). EOFError when the other end has closed."""
    import socket

    data, fds, _, _ = socket.recv_fds(sock, max_size, max_fds)
    if not data:
        for fd in fds:
            _close(fd)
        raise EOFError("the other end closed the connection")
    try:
        return unframe(data), fds
    except ValueError:
        for fd in fds:
            _close(fd)
        raise


class FrameTooLarge(ValueError):
    """A frame over the reader's size limit (any other ValueError of the reader's: a malformed message)."""


class FrameReader:
    """Frames out of a byte stream read in chunks (for a reader that waits with select and a deadline)."""

    def __init__(self, max_frame: int = MAX_FRAME):
        self.buffer, self.max_frame = bytearray(), max_frame

    def feed(self, chunk: bytes) -> list:
        """Add bytes read; return the messages now complete (FrameTooLarge for a frame over the size limit, ValueError
        for a malformed message)."""
        self.buffer += chunk
        messages = []
        while len(self.buffer) >= _HEADER.size:
            size = _HEADER.unpack(self.buffer[: _HEADER.size])[0]
            if size > self.max_frame:
                raise FrameTooLarge(f"a message of {size} bytes, more than the {self.max_frame} allowed")
            if len(self.buffer) < _HEADER.size + size:
                break
            messages.append(_loads(bytes(self.buffer[_HEADER.size : _HEADER.size + size])))
            del self.buffer[: _HEADER.size + size]
        return messages


def recv_exact(sock, n):
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise EOFError("the other end closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _close(fd):
    try:
        os.close(fd)
    except OSError:
        pass
