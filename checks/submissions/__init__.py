"""Finding the submissions to grade, as students hand them in: one row per student, whatever the platform's export.

    survey(["class/"]).submissions   # [Submission("Jane Doe", Path(".../agent.py"), note, "Jane Doe", "12345"), ...]

A SUBMISSION named on the command line is an agent.py (or any .py file), a zip (unpacked, never graded as Python),
one student's folder (their agent.py, or a copy of the repo), or a class folder exported by Canvas, Moodle,
Blackboard or GitHub Classroom, or made by hand (see layouts.py). Which file of a hand-in is the agent is decided in
picking.py. Two rows that grade the very same file (a link, a hard link) both say so; no row is dropped.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from harness.errors import UsageError
from harness.settings import shown

from .archives import ArchiveError, Scratch, is_zip, unpack
from .layouts import Student, read_class
from .picking import AGENT, pick

__all__ = ["AGENT", "Scratch", "Submission", "Survey", "natural_key", "survey"]


@dataclass(frozen=True)
class Submission:
    """One student's work: a name for the row, the agent file to grade (None if none was found), and a note."""

    name: str
    path: Path | None
    note: str = ""
    student: str = ""  # the student's name as the platform gave it ('' when the row's name is all there is)
    student_id: str = ""  # the platform's id for the student ('' when it gives none)
    late: bool | None = None  # the platform marks it late (None: it does not say)
    submitted: str = ""  # when it was handed in, as the platform writes it ('' when it does not say)
    similar: tuple = ()  # (name, similarity) of the other submissions alike enough to look at (see similarity.py)
    platform: str = ""  # the export it was read from: canvas, moodle, blackboard, classroom ('' when none)


@dataclass
class Survey:
    """What was found: the submissions (sorted by name), the layouts read, and what was left aside and why."""

    submissions: list[Submission] = field(default_factory=list)
    layouts: list[str] = field(default_factory=list)  # one per class folder read: canvas, moodle, ..., folders
    stray: list[str] = field(default_factory=list)  # entries of a class folder that are no student's
    skipped: list[str] = field(default_factory=list)  # older attempts not graded, as "student: file"
    problems: list[str] = field(default_factory=list)  # entries of a zip left out, and why


def survey(names: list[str], *, gradescope: bool = False, submission_dir=None, scratch: Scratch | None = None) -> Survey:
    """The submissions named on the command line, sorted by name (s2 before s10), with the layouts read and what was
    left aside; or UsageError.

    With `gradescope`, one submission: the one folder or file named, else `submission_dir`, read as one student's.
    scratch: where zips are unpacked (default: a temporary folder removed when the program ends).
    """
    scratch = scratch or Scratch()
    found = Survey()
    if gradescope:
        if len(names) > 1:
            raise UsageError("--format gradescope grades one submission at a time: give one SUBMISSION, or none")
        path = Path(names[0] if names else submission_dir).expanduser()
        if not path.exists():
            raise UsageError(f"there is no {path}: give the student's folder with --submission-dir")
        entries = _visible(path) if path.is_dir() else [path]
        home = path if path.is_dir() else path.parent
        chosen = pick(entries, home=home, scratch=scratch, label="the submission")
        found.submissions = [Submission("submission", chosen.path, chosen.note)]
        return found
    if not names:
        raise UsageError("no SUBMISSION given: name agent.py files or folders of submissions")
    rows: list[Submission] = []
    for text in names:
        rows += _named(Path(text).expanduser(), text, scratch, found)
    found.submissions = _shared(_unique(rows))
    return found


def _named(path: Path, text: str, scratch: Scratch, found: Survey) -> list[Submission]:
    """The submissions one command-line argument names."""
    if not path.exists():
        raise UsageError(f"there is no file or folder {text}")
    if path.is_file() and is_zip(path):
        folder = scratch.folder()
        try:
            left_out = unpack(path, folder)
        except ArchiveError as exc:
            raise UsageError(str(exc)) from None
        found.problems += [f"left out of {path.name}: {entry}" for entry in left_out]
        inside = _visible(folder)
        if len(inside) == 1 and inside[0].is_dir():
            folder = inside[0]  # a zip of one folder: the class folder, or the student's copy of the repo
        if _is_one_students(folder):
            return [_student(Student(path.stem, folder, entries=_visible(folder)), scratch, label=f"{path.name}")]
        return _class(folder, text, scratch, found)
    if path.is_file():
        if path.suffix.casefold() != ".py":
            raise UsageError(f"{text} is not a .py file, a .zip or a folder")
        return [Submission(_file_name(path), path)]
    if _is_one_students(path):
        return [_student(Student(path.resolve().name, path, entries=_visible(path)), scratch)]
    return _class(path, text, scratch, found)


def _class(folder: Path, text: str, scratch: Scratch, found: Survey) -> list[Submission]:
    entries = _visible(folder)
    read = read_class(folder, entries)
    if not read.students:
        raise UsageError(f"no submissions found in {text}: it has no agent.py, no subfolders, no .py files")
    found.layouts.append(read.layout)
    found.stray += read.stray
    found.skipped += [f"{s.name}: {name}" for s in read.students for name in s.skipped]
    platform = "" if read.layout == "folders" else read.layout  # whose ids the rows carry
    return [replace(_student(student, scratch, folder), platform=platform) for student in read.students]


def _student(student: Student, scratch: Scratch, class_folder: Path | None = None, label: str = "") -> Submission:
    """The row for one student: their agent file, picked from what they handed in, and a note.

    class_folder: the folder the student's entry sits in (None when the student's own folder was named)."""
    name, notes = student.name, []
    given = ((student.name, student.id) if student.id else ("", "")) + (student.late, student.submitted)
    if class_folder and student.home != class_folder and student.home.is_symlink() and \
            not _inside(student.home, class_folder):
        return Submission(name, None, f"{student.home.name} is a link to a folder outside the class folder, so it "
                          "was not read", *given)
    if student.skipped:
        notes.append(f"older attempts not graded: {', '.join(student.skipped)}")
    if not student.entries:
        what = student.only or "nothing"
        return Submission(name, None, "; ".join([f"no {AGENT} found: handed in {what}, no file", *notes]), *given)
    label = label or (f"{name}'s files" if student.home == class_folder else f"{student.home.name}/")
    chosen = pick(student.entries, home=student.home, scratch=scratch, label=label)
    return Submission(name, chosen.path, "; ".join(n for n in [chosen.note, *notes] if n), *given)


def _is_one_students(folder: Path) -> bool:
    """A folder is one student's hand-in (not a class) when it holds an agent.py, lab/agent.py or a repository."""
    names = {entry.name.casefold() for entry in _visible(folder, hidden=True)}
    lab = folder / "lab"
    return (AGENT in names or ".git" in names or "pyproject.toml" in names
            or (lab.is_dir() and any(e.name.casefold() == AGENT for e in _visible(lab))))


def _inside(path: Path, folder: Path) -> bool:
    target, home = path.resolve(), folder.resolve()
    return target == home or home in target.parents


def _visible(folder: Path, *, hidden: bool = False) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot read the folder {folder}: {exc.strerror}") from None
    skipped = {"__pycache__", "__MACOSX", "node_modules", "venv", ".venv"}
    return [e for e in entries if (hidden or not e.name.startswith((".", "__"))) and e.name not in skipped]


def _file_name(path: Path) -> str:
    """A file's submission name: its folder's for an agent.py (class/alice/agent.py is alice), else its stem."""
    resolved = path.resolve()
    if resolved.name != AGENT:
        return resolved.stem
    folder = resolved.parent
    return folder.parent.name if folder.name == "lab" and folder.parent.name else folder.name


def _unique(found: list[Submission]) -> list[Submission]:
    """Each file named twice graded once; names made unique (by the student's id, else the shown path)."""
    seen, kept = set(), []
    for one in found:
        key = os.path.abspath(one.path) if one.path else ("missing", one.name, one.note)
        if key not in seen:
            seen.add(key)
            kept.append(one)
    counts: dict[str, int] = {}
    for one in kept:
        counts[one.name] = counts.get(one.name, 0) + 1
    renamed = []
    for one in kept:
        if counts[one.name] > 1:
            label = f"{one.name} ({one.student_id})" if one.student_id else \
                shown(one.path) if one.path else f"{one.name} ({one.note})"
            one = replace(one, name=label)
        renamed.append(one)
    return sorted(renamed, key=lambda one: natural_key(one.name))


def _shared(rows: list[Submission]) -> list[Submission]:
    """Rows whose agent is the very same file (a link, a hard link) each say whose else it is; none is dropped."""
    by_file: dict[tuple[int, int], list[str]] = {}
    for one in rows:
        if one.path is not None:
            try:
                info = one.path.stat()
            except OSError:
                continue
            by_file.setdefault((info.st_dev, info.st_ino), []).append(one.name)
    out = []
    for one in rows:
        try:
            info = one.path.stat() if one.path is not None else None
        except OSError:
            info = None
        others = [n for n in by_file.get((info.st_dev, info.st_ino), []) if n != one.name] if info else []
        if others:
            shared = f"the same file as {', '.join(others)}'s submission"
            one = replace(one, note="; ".join(n for n in (one.note, shared) if n))
        out.append(one)
    return out


def natural_key(text: str) -> tuple:
    """Sort key that orders names as people do: s2 before s10, case ignored."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                 for part in re.split(r"(\d+)", text) if part), text
