"""Which file of one student's hand-in is their agent.py: the name they gave it, where they put it, what it defines.

Students hand in `agent.py`, but also `Agent.py`, `agent (1).py`, `my_agent.py`, a copy of the whole repo, or a zip
of it. The best candidate wins, in this order: named exactly agent.py, agent.py in another case, a numbered copy
(`agent (1).py`, `agent-2.py`), any name holding "agent", then any .py file that defines one of the five functions;
a file in the lab's own folders (solutions/, tests/, ...) of a copied repo comes last, and within a rank the one
nearest the top (lab/ first) wins. A link is followed only while it stays inside the student's own folder.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from harness import syntax
from harness.errors import NotPythonSource
from harness.files import read_source

from ..runner.loading import MAX_AGENT_BYTES
from ..steps import STEPS
from .archives import NOT_UNPACKED, ArchiveError, Budget, Scratch, is_zip, unpack

AGENT = "agent.py"
FUNCTIONS = frozenset(step.function for step in STEPS)
LAB_FOLDERS = {"solutions", "tests", "checks", "harness", "notebooks", "bench"}  # in a copied repo: the lab's files
MAX_DEPTH = 5  # folders below the hand-in searched (a zip of a repo's folder: zip/repo/lab/agent.py)
MAX_ZIPS_DEEP = 2  # a zip inside a zip is unpacked; one more level down is not
NAMES_SHOWN = 6  # file names listed in a note before "and N more"
_NUMBERED_COPY = re.compile(r"agent[\s_.\-]*(\(\d+\)|\d+|copy|final)?", re.IGNORECASE)


@dataclass(frozen=True)
class Pick:
    """The agent file chosen (None when there is none) and a note that says what else was there or why not."""

    path: Path | None
    note: str = ""


@dataclass(frozen=True)
class _Candidate:
    path: Path
    shown: str  # as the student named it: relative to the hand-in, through any zip
    depth: int
    in_lab_folder: bool
    rank: int

    @property
    def under_lab(self) -> bool:
        return "/lab/" in f"/{self.shown}"


def pick(entries: list[Path], *, home: Path, scratch: Scratch, label: str) -> Pick:
    """The agent file among `entries` (the files and folders a student handed in) and a note.

    home: the student's own folder; a link that leads outside it is not followed.
    label: how a note names the hand-in ("alice/", "the submission").
    """
    walk = _Walk(home, scratch)
    for entry in entries:
        walk.visit(entry, entry.name, 0, 0)
    chosen = _best(walk.candidates)
    notes = []
    if chosen is None:
        notes.append(_nothing_found(label, walk.seen))
    else:
        others = [c.shown for c in walk.candidates if c is not chosen and c.rank <= 3 and not c.in_lab_folder]
        if others:
            notes.append(f"graded {chosen.shown}; also found {_names(others)}")
        elif chosen.rank > 0 and (len(entries) > 1 or chosen.depth > 0):
            notes.append(f"graded {chosen.shown} (no file named {AGENT})")
    notes += walk.problems
    return Pick(chosen.path if chosen else None, "; ".join(notes))


class _Walk:
    """The files of a hand-in, found by walking its folders and unpacking its zips, links kept inside `home`."""

    def __init__(self, home: Path, scratch: Scratch):
        self.home = home.resolve()
        self.scratch, self.budget = scratch, Budget()  # one budget for all the zips of this hand-in
        self.candidates: list[_Candidate] = []
        self.seen: list[str] = []
        self.problems: list[str] = []
        self._folders: set[Path] = set()

    def visit(self, path: Path, shown: str, depth: int, zips: int, home: Path | None = None) -> None:
        home = home or self.home
        name = path.name
        if name.startswith(".") or name in NOT_UNPACKED:
            return
        if path.is_symlink():
            try:
                target = path.resolve(strict=True)
            except (OSError, RuntimeError):
                self.problems.append(f"{shown} is a broken link")
                return
            if target != home and home not in target.parents:
                self.problems.append(f"{shown} is a link to a file outside the student's folder, so it was not read")
                return
        if path.is_dir():
            self._folder(path, shown, depth, zips, home)
        elif path.is_file():
            self.seen.append(shown)
            if path.suffix.casefold() == ".py":
                self._candidate(path, shown, depth)
            elif is_zip(path) and zips < MAX_ZIPS_DEEP:
                self._zip(path, shown, depth, zips)

    def _folder(self, path: Path, shown: str, depth: int, zips: int, home: Path) -> None:
        real = path.resolve()
        if depth >= MAX_DEPTH or real in self._folders:
            return
        self._folders.add(real)
        try:
            children = sorted(path.iterdir())
        except OSError as exc:
            self.problems.append(f"cannot read {shown}/ ({exc.strerror})")
            return
        for child in children:
            self.visit(child, f"{shown}/{child.name}", depth + 1, zips, home)

    def _zip(self, path: Path, shown: str, depth: int, zips: int) -> None:
        folder = self.scratch.folder()
        try:
            left_out = unpack(path, folder, self.budget)
        except ArchiveError as exc:
            self.problems.append(f"could not unpack {shown}: {exc}")
            return
        if left_out:
            self.problems.append(f"left out of {shown}: {_names(left_out, 2)}")
        for child in sorted(folder.iterdir()):
            self.visit(child, f"{shown}/{child.name}", depth + 1, zips + 1, folder.resolve())

    def _candidate(self, path: Path, shown: str, depth: int) -> None:
        parts = shown.split("/")
        in_lab_folder = any(part in LAB_FOLDERS for part in parts[:-1])
        self.candidates.append(_Candidate(path, shown, depth, in_lab_folder, _rank(parts[-1])))


def _rank(name: str) -> int:
    """0 agent.py, 1 another case of it, 2 a numbered copy, 3 any name holding "agent", 4 any other .py file."""
    stem = name[: -len(".py")]
    if name == AGENT:
        return 0
    if name.casefold() == AGENT:
        return 1
    if _NUMBERED_COPY.fullmatch(stem):
        return 2
    return 3 if "agent" in stem.casefold() else 4


def _best(candidates: list[_Candidate]) -> _Candidate | None:
    """The best candidate: by folder kind, rank, how many of the five functions it defines, depth, lab/ first."""
    groups: dict[tuple[bool, int], list[_Candidate]] = {}
    for one in candidates:
        groups.setdefault((one.in_lab_folder, one.rank), []).append(one)
    for key in sorted(groups):
        scored = [(len(defined(c.path)), c) for c in groups[key]] if len(groups[key]) > 1 or key[1] == 4 else \
            [(0, groups[key][0])]
        if key[1] == 4:
            scored = [(n, c) for n, c in scored if n > 0]  # an unrelated .py file is not an agent
        if scored:
            return min(scored, key=lambda nc: (-nc[0], nc[1].depth, not nc[1].under_lab, nc[1].shown))[1]
    return None


def defined(path: Path) -> set[str]:
    """The five functions a file defines at its top level (none when it is not Python source)."""
    try:
        if path.stat().st_size > MAX_AGENT_BYTES:  # never parsed: the runner refuses it unread, and 24 MB took 2 GB
            return set()
        tree = syntax.parse(read_source(path))
    except (OSError, NotPythonSource, SyntaxError, ValueError, RecursionError):
        return set()
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))} & FUNCTIONS


def _nothing_found(label: str, seen: list[str]) -> str:
    if not seen:
        return f"no {AGENT} found: {label} is empty"
    return f"no {AGENT} found in {label}; it holds {_names(seen)}"


def _names(names: list[str], shown: int = NAMES_SHOWN) -> str:
    listed = ", ".join(names[:shown])
    return listed + (f" and {len(names) - shown} more" if len(names) > shown else "")
