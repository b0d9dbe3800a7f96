"""The lab's one wire format: length-prefixed JSON frames, and plain values encoded to cross a wall as data.

Both sides of every wall import this file: the sandbox's caller, server, test process and solution process (the
sandbox's processes load it by path, without the `harness` package), and the grader's agent runner.
"""

from __future__ import annotations

import json
import os
import socket
import struct

MAX_FRAME = 1 << 20  # largest value a solution may return, in bytes of JSON
_HEADER = struct.Struct(">I")

class Unsendable(TypeError):
    pass


def encode(value, depth=0):
    """Turn a plain value into JSON-able data; anything else is refused."""
    if depth > 50:
        raise Unsendable("the value is nested too deeply")
    if value is None or value is True or value is False:
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return {"float": repr(float(value))}
    if isinstance(value, str):
        return {"str": str.__str__(value)}
    if isinstance(value, bytes):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, (list, tuple, set, frozenset)):
        kind = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
        tag = next((name for cls, name in kind.items() if isinstance(value, cls)), "list")
        return {tag: [encode(v, depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if isinstance(value, complex):
        return {"complex": [repr(value.real), repr(value.imag)]}
    raise Unsendable(f"a {type(value).__name__} object cannot cross the sandbox wall; return plain data")


def decode(data, depth=0):
    """Inverse of encode, strict: only the shapes encode makes are accepted."""
    if depth > 60:
        raise ValueError("nested too deeply")
    if data is None or type(data) in (bool, int):
        return data
    if type(data) is dict and len(data) == 1:
        (tag, body), = data.items()
        if tag == "str" and type(body) is str:
            return body
        if tag == "float" and type(body) is str:
            return float(body)
        if tag == "bytes" and type(body) is str:
            return bytes.fromhex(body)
        if tag == "complex" and type(body) is list and len(body) == 2:
            return complex(float(body[0]), float(body[1]))
        if tag in ("list", "tuple", "set", "frozenset") and type(body) is list:
            items = [decode(v, depth + 1) for v in body]
            return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)
        if tag == "dict" and type(body) is list:
            return {decode(k, depth + 1): decode(v, depth + 1) for k, v in (pair for pair in body if len(pair) == 2)}
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


class FrameReader:
    """Frames out of a byte stream read in chunks (for a reader that waits with select and a deadline)."""

    def __init__(self, max_frame: int = MAX_FRAME):
        self.buffer, self.max_frame = bytearray(), max_frame

    def feed(self, chunk: bytes) -> list:
        """Add bytes read; return the messages now complete (ValueError for a frame over the size limit)."""
        self.buffer += chunk
        messages = []
        while len(self.buffer) >= _HEADER.size:
            size = _HEADER.unpack(self.buffer[: _HEADER.size])[0]
            if size > self.max_frame:
                raise ValueError(f"a message of {size} bytes, more than the {self.max_frame} allowed")
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
