"""The wire between the sandbox's test process and solution process: plain values in length-prefixed JSON frames."""

from __future__ import annotations

import json
import struct

MAX_FRAME = 1 << 20  # largest value a solution may return, in bytes of JSON

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
    return struct.pack(">I", len(data)) + data


def send_frame(sock, obj):
    sock.sendall(frame(obj))


def recv_frame(sock):
    return json.loads(recv_exact(sock, struct.unpack(">I", recv_exact(sock, 4))[0]))


def recv_exact(sock, n):
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise EOFError("the other end closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def cut(text, limit):
    """Text no longer than about `limit` characters, saying so when it was cut."""
    text = str(text)
    if len(text) <= limit:
        return text
    return text[:limit] + f" [... {len(text) - limit} more characters cut]"
