"""The lab's own files, read and written safely: Python source read as Python reads it, files written whole or not at all."""

from __future__ import annotations

import io
import os
import time
import tokenize
from pathlib import Path

from .errors import NotPythonSource


def read_source(path) -> str:
    """The text of a Python file, decoded the way Python decodes it: UTF-8 by default, a UTF-8 BOM is dropped, and a
    `# -*- coding: ... -*-` line (PEP 263) is honoured. Raises NotPythonSource, saying what the file seems to be."""
    data = Path(path).read_bytes()
    return decode_source(data, Path(path).name)


def decode_source(data: bytes, name: str = "agent.py") -> str:
    if data.startswith(b"PK\x03\x04"):
        raise NotPythonSource(f"{name} is a zip archive, not Python source: unzip it and hand in the agent.py inside")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise NotPythonSource(
            f"{name} is saved as UTF-16, which Python cannot run: save it again as UTF-8 (your editor's "
            "'Save with encoding' or 'Encoding' menu)"
        )
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
        reason = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        raise NotPythonSource(
            f"{name} is not UTF-8 text, which Python expects ({reason}): save it again as UTF-8"
        ) from None
    if "\x00" in text:
        raise NotPythonSource(f"{name} holds NUL bytes, so it is not Python source (is it a binary file?)")
    return text[1:] if text.startswith("\ufeff") else text


def write_atomically(path, text: str, *, mode: int = 0o644) -> Path:
    """Write `text` to `path` as UTF-8, whole or not at all: a temporary file beside it, then a rename.

    Several processes may write the same path at once; a reader sees the old file or a new one, never a part.
    """
    import tempfile  # here: an agent's process reads sources through this module, and never writes one

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        _replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return path


def _replace(src: str, dst: Path, attempts: int = 5) -> None:
    # On Windows os.replace fails while another process has the target open; retry briefly.
    for attempt in range(attempts):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
