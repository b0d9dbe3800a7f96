"""harness.files: Python source read the way Python reads it, and files written whole or not at all."""

import os
import threading

import pytest

from harness.errors import NotPythonSource
from harness.files import decode_source, read_source, write_atomically


def test_plain_utf8_source_is_read_as_it_is(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text("x = 'café'\n", encoding="utf-8")
    assert read_source(path) == "x = 'café'\n"


def test_a_utf8_bom_is_dropped_as_python_drops_it(tmp_path):
    path = tmp_path / "agent.py"
    path.write_bytes(b"\xef\xbb\xbfx = 1\n")
    assert read_source(path) == "x = 1\n"


def test_a_coding_line_is_honoured():
    source = "# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n".encode("latin-1")
    assert decode_source(source) == "# -*- coding: latin-1 -*-\nx = 'café'\n"


@pytest.mark.parametrize(
    "data, says",
    [
        (b"x = 'caf\xe9'\n", "is not UTF-8 text"),
        ("x = 1\n".encode("utf-16"), "saved as UTF-16"),
        (b"PK\x03\x04rest of a zip", "is a zip archive"),
        (b"x = 1\x00\x00\n", "NUL bytes"),
        (b"# coding: no-such-codec\nx = 1\n", "is not UTF-8 text"),
    ],
)
def test_what_python_cannot_read_is_named_plainly(data, says):
    with pytest.raises(NotPythonSource, match=says):
        decode_source(data, "agent.py")


def test_an_atomic_write_leaves_the_whole_file_and_nothing_else(tmp_path):
    path = write_atomically(tmp_path / "out" / "grades.csv", "a,b\n")
    assert path.read_text() == "a,b\n" and os.listdir(path.parent) == ["grades.csv"]
    assert oct(path.stat().st_mode & 0o777) == "0o644"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "grades.csv"
    path.write_text("old\n")
    with pytest.raises(TypeError):
        write_atomically(path, None)
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["grades.csv"]


def test_writers_racing_on_one_path_never_leave_a_part(tmp_path):
    path = tmp_path / "shared.txt"
    texts = [str(n) * 5000 for n in range(8)]
    threads = [threading.Thread(target=lambda t=t: [write_atomically(path, t) for _ in range(20)]) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert path.read_text() in texts and os.listdir(tmp_path) == ["shared.txt"]
