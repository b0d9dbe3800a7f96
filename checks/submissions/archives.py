"""Zip files handed in, unpacked safely: no path leaves the folder, no links are made, size and count are bounded.

A class export (Canvas's submissions.zip) or one student's zip of their repo is unpacked into a scratch folder and
then read like any folder. The limits are counted on what is written, not on what the zip's headers claim, so a
zip bomb stops at the limit; folders no submission needs (.git, virtual environments) are not unpacked at all.
"""

from __future__ import annotations

import atexit
import re
import shutil
import stat
import tempfile
import zipfile
import zlib
from pathlib import Path

MAX_ENTRIES = 20_000  # entries in one zip
MAX_BYTES = 500 << 20  # bytes unpacked from one zip, all files together (a class of repos fits; a bomb does not)
MAX_FILE_BYTES = 50 << 20  # bytes of one file; a bigger one is left out (an agent.py is a few kB)
NOT_UNPACKED = {".git", ".venv", "venv", "env", "node_modules", "__pycache__", "__MACOSX", "site-packages",
                ".ipynb_checkpoints", ".cache"}  # never part of a submission, often most of a zip's size
_CHUNK = 1 << 16


class ArchiveError(Exception):
    """A zip that cannot be unpacked safely; the message says why in one line."""


class Budget:
    """The bytes still to be unpacked from one hand-in, its zips inside zips together (MAX_BYTES in all): a 10 kB zip
    of zips once wrote 2.4 GB, each zip within its own limit."""

    def __init__(self, total: int | None = None):
        self.total = self.left = MAX_BYTES if total is None else total
        self.shared = False


class Scratch:
    """Folders for unpacked zips, under one temporary folder made on first use and removed by close() or at exit."""

    def __init__(self):
        self._base: Path | None = None
        self._count = 0

    def folder(self) -> Path:
        """A new, empty folder path (not yet made) to unpack one zip into."""
        if self._base is None:
            self._base = Path(tempfile.mkdtemp(prefix="spec2code-unzipped-"))
            atexit.register(self.close)
        self._count += 1
        return self._base / str(self._count)

    def close(self) -> None:
        if self._base is not None:
            shutil.rmtree(self._base, ignore_errors=True)
            self._base = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def is_zip(path: Path) -> bool:
    """True for a file whose name ends in .zip (whatever its case)."""
    return path.suffix.casefold() == ".zip"


def unpack(archive: Path, into: Path, budget: Budget | None = None) -> list[str]:
    """Unpack `archive` into the folder `into` (made here); return the names of the entries left out, and why.

    Raises ArchiveError when the file is not a readable zip, has too many entries, or unpacks to more than
    MAX_BYTES (or than is left of `budget`, shared by the zips of one hand-in).
    """
    budget = budget or Budget()
    budget.shared = budget.left < budget.total  # other zips of the hand-in were unpacked before this one
    try:
        opened = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveError(f"{archive.name} is not a zip file that can be read ({exc})") from None
    left_out: list[str] = []
    with opened:
        entries = opened.infolist()
        if len(entries) > MAX_ENTRIES:
            raise ArchiveError(f"{archive.name} holds {len(entries)} entries, more than the {MAX_ENTRIES} allowed")
        into.mkdir(parents=True, exist_ok=True)
        for entry in entries:
            parts = safe_parts(entry.filename)
            if parts is None:
                left_out.append(f"{entry.filename} (a path outside the zip's folder)")
                continue
            if any(part in NOT_UNPACKED for part in parts):
                continue
            if _is_link(entry):
                left_out.append(f"{entry.filename} (a link)")
                continue
            target = into.joinpath(*parts)
            if entry.is_dir():
                _make_folder(target, entry, left_out)
                continue
            if entry.file_size > MAX_FILE_BYTES:
                left_out.append(f"{entry.filename} (over {MAX_FILE_BYTES >> 20} MB)")
                continue
            _write(opened, entry, target, budget, left_out, archive.name)
    return left_out


def safe_parts(name: str) -> list[str] | None:
    """The path components of a zip entry's name, or None when it is absolute or climbs out with '..'."""
    name = name.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return None
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if not parts or any(part == ".." for part in parts):
        return None
    return parts


def _is_link(entry: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(entry.external_attr >> 16)


def _make_folder(target: Path, entry: zipfile.ZipInfo, left_out: list[str]) -> None:
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        left_out.append(f"{entry.filename} (cannot be made here)")


def _write(opened: zipfile.ZipFile, entry: zipfile.ZipInfo, target: Path, budget: Budget, left_out: list[str],
           name: str) -> None:
    """Copy one entry to `target`, counting every byte against the budget."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with opened.open(entry) as source, open(target, "wb") as copy:
            size = 0
            while chunk := source.read(_CHUNK):
                size += len(chunk)
                budget.left -= len(chunk)
                if budget.left < 0:
                    around = ", with the zips unpacked before it," if budget.shared else ""
                    raise ArchiveError(f"{name} unpacks{around} to more than {budget.total >> 20} MB: hand in only "
                                       "agent.py")
                if size > MAX_FILE_BYTES:
                    break
                copy.write(chunk)
        if size > MAX_FILE_BYTES:
            target.unlink()
            left_out.append(f"{entry.filename} (over {MAX_FILE_BYTES >> 20} MB)")
    except ArchiveError:
        raise
    except (OSError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError) as exc:
        left_out.append(f"{entry.filename} ({type(exc).__name__})")  # encrypted, damaged or an unwritable name
