"""A class folder read as students, whichever platform exported it: Canvas, Moodle, Blackboard, GitHub Classroom, or
plain folders (one subfolder or one .py file per student).

Each platform names what it exports in its own way; the layout that names most of the folder's entries is the one
in force. A student is one row whatever the number of files or folders they have: the latest attempt is kept (the
older ones are named), a receipt or online text without a file still makes a row that says so, and an entry no
layout can place (a stray index.html) makes none.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .archives import is_zip

RECEIPT_BYTES = 64 << 10  # the start of a Blackboard receipt read for the name, username and date
# doejane_12345_67890_agent.py, doejane_LATE_12345_67890_agent-1.py: login, late flag, user id, file id, file name
CANVAS = re.compile(r"(?P<login>[^_]+?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<file_id>\d+)_(?P<file>.+)", re.DOTALL)
# Jane Doe_12345_assignsubmission_file_ (a folder, Moodle 3.x), Jane Doe_12345_assignsubmission_file (Moodle 4.1 and
# later: no trailing _) or Jane Doe_12345_assignsubmission_file_agent.py (a file). The number is the assignment's
# participant id, the "Identifier" of its grading worksheet.
MOODLE = re.compile(r"(?P<name>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<file>.*))?", re.DOTALL)
# Lab 1_jdoe_attempt_2026-11-30-10-00-00_agent.py, and the receipt Lab 1_jdoe_attempt_2026-11-30-10-00-00.txt. Both
# the assignment and the username may hold a "_": the receipt says which part is the username.
BLACKBOARD = re.compile(r"(?P<prefix>.+?)_attempt_(?P<stamp>\d{4}(?:-\d\d){5})(?P<rest>.*)", re.DOTALL)
RECEIPT_NAME = re.compile(r"^Name:\s*(?P<name>.*?)\s*\((?P<user>[^()]*)\)\s*$", re.MULTILINE)
RECEIPT_DATE = re.compile(r"^Date Submitted:\s*(?P<date>.*?)\s*$", re.MULTILINE)
_COPY_NUMBER = re.compile(r"(?P<stem>.+)-(?P<n>\d+)(?P<suffix>\.[^.]*)?", re.DOTALL)  # agent-1.py: Canvas's resubmission


@dataclass
class Student:
    """One student's hand-in as a platform exported it."""

    name: str  # as the platform names them: a login, a full name, a folder's name
    home: Path  # their own folder (for a flat export, the class folder): links must stay inside it
    id: str = ""  # the platform's id for them ("" when it gives none)
    entries: list[Path] = field(default_factory=list)  # the files and folders of their latest attempt
    skipped: list[str] = field(default_factory=list)  # older attempts, not graded
    only: str = ""  # what they handed in when it holds no file: "a receipt", "online text"
    late: bool | None = None  # whether the platform marks the hand-in late (None: it does not say)
    submitted: str = ""  # when it was handed in, as the platform writes it ("" when it does not say)


@dataclass
class ClassFolder:
    """A class folder read as students: the layout in force, the students, and the entries that are no one's."""

    layout: str  # "canvas", "moodle", "blackboard", "classroom" or "folders"
    students: list[Student]
    stray: list[str]


def read_class(folder: Path, entries: list[Path]) -> ClassFolder:
    """The students in a class folder whose visible entries are `entries`."""
    readers = {"canvas": _canvas, "moodle": _moodle, "blackboard": _blackboard, "classroom": _classroom}
    counts = {name: _count(name, entries) for name in readers}
    best = max(counts, key=counts.get)
    if counts[best] and 2 * counts[best] >= len(entries):
        students, stray = readers[best](folder, entries)
        return ClassFolder(best, students, stray)
    return ClassFolder("folders", *_folders(folder, entries))


def _count(layout: str, entries: list[Path]) -> int:
    if layout == "canvas":
        return sum(1 for e in entries if e.is_file() and CANVAS.fullmatch(e.name))
    if layout == "moodle":
        return sum(1 for e in entries if MOODLE.fullmatch(e.name))
    if layout == "blackboard":
        return sum(1 for e in entries if e.is_file() and BLACKBOARD.fullmatch(e.name))
    return len(entries) if _classroom_prefix(entries) else 0


def _folders(folder: Path, entries: list[Path]) -> tuple[list[Student], list[str]]:
    """Plain folders: each subfolder, .py file and .zip file is one student, named by it."""
    students, stray = [], []
    for entry in entries:
        if entry.is_dir():
            students.append(Student(entry.name, entry, entries=_children(entry)))
        elif entry.suffix.casefold() == ".py" or is_zip(entry):
            students.append(Student(entry.stem, folder, entries=[entry]))
        else:
            stray.append(entry.name)
    return students, stray


def _canvas(folder: Path, entries: list[Path]) -> tuple[list[Student], list[str]]:
    """Canvas: flat files login[_LATE]_userid_fileid_name; a file sent again is name-1, name-2, ... (keep the last)."""
    by_id: dict[str, Student] = {}
    latest: dict[tuple[str, str], tuple[tuple, Path]] = {}
    stray = []
    for entry in entries:
        match = CANVAS.fullmatch(entry.name) if entry.is_file() else None
        if not match:
            stray.append(entry.name)
            continue
        student = by_id.setdefault(match["id"], Student(match["login"], folder, match["id"]))
        base, number = _copy_of(match["file"])
        order = (number, int(match["file_id"]), bool(match["late"]))
        key = (match["id"], base)
        if key in latest:
            older = min(latest[key], (order, entry), key=lambda pair: pair[0])
            student.skipped.append(older[1].name)
            if older[1] is entry:
                continue
        latest[key] = (order, entry)
    for (student_id, _), (order, entry) in latest.items():
        student = by_id[student_id]
        student.entries.append(entry)
        student.late = bool(student.late) or order[2]  # Canvas marks the whole submission late, in every file
    return list(by_id.values()), stray


def _copy_of(name: str) -> tuple[str, int]:
    """'agent-2.py' -> ('agent.py', 2); 'agent.py' -> ('agent.py', 0)."""
    match = _COPY_NUMBER.fullmatch(name)
    if not match:
        return name, 0
    return match["stem"] + (match["suffix"] or ""), int(match["n"])


def _moodle(folder: Path, entries: list[Path]) -> tuple[list[Student], list[str]]:
    """Moodle: Name_id_assignsubmission_PLUGIN_ folders (or flat files); only the `file` plugin holds files."""
    by_id: dict[str, Student] = {}
    stray = []
    for entry in entries:
        match = MOODLE.fullmatch(entry.name)
        if not match:
            stray.append(entry.name)
            continue
        student = by_id.setdefault(match["id"], Student(match["name"], folder, match["id"]))
        if match["plugin"] != "file":
            student.only = student.only or "online text"  # onlinetext, comments: words, not files
        elif entry.is_dir():
            student.home, student.entries = entry, student.entries + _children(entry)
        else:
            student.entries.append(entry)
    return list(by_id.values()), stray


def _blackboard(folder: Path, entries: list[Path]) -> tuple[list[Student], list[str]]:
    """Blackboard: Assignment_user_attempt_STAMP_name files and a receipt Assignment_user_attempt_STAMP.txt."""
    attempts: dict[str, dict[str, list[Path]]] = {}  # "Assignment_user" -> stamp -> files
    stray = []
    for entry in entries:
        match = BLACKBOARD.fullmatch(entry.name) if entry.is_file() else None
        if not match or not (match["rest"].startswith("_") or match["rest"].casefold() in ("", ".txt")):
            stray.append(entry.name)
            continue
        attempts.setdefault(match["prefix"], {}).setdefault(match["stamp"], []).append(entry)
    receipts = {prefix: _receipt(by_stamp[max(by_stamp)]) for prefix, by_stamp in attempts.items()}
    # The assignment's name, from the receipts that give a username: it tells apart the username of the others.
    assignments = {prefix[: -len(user) - 1] for prefix, (_, user, _) in receipts.items()
                   if user and prefix.endswith("_" + user)}
    students = []
    for prefix, by_stamp in attempts.items():
        last = max(by_stamp)
        files = [e for e in by_stamp[last] if BLACKBOARD.fullmatch(e.name)["rest"].startswith("_")]
        name, user, date = receipts[prefix]
        user = user or _username(prefix, assignments)
        student = Student(name or user, folder, user, entries=files, submitted=date or _stamp(last))
        student.skipped = [e.name for stamp in sorted(by_stamp) if stamp != last for e in by_stamp[stamp]]
        if not files:
            student.only = "a receipt"
        students.append(student)
    return students, stray


def _username(prefix: str, assignments: set[str]) -> str:
    """The username in 'Assignment_user' with no receipt to say: what follows a known assignment's name, else the
    last part."""
    for assignment in sorted(assignments, key=len, reverse=True):
        if prefix.startswith(assignment + "_"):
            return prefix[len(assignment) + 1:]
    return prefix.rsplit("_", 1)[-1]


def _stamp(stamp: str) -> str:
    """Blackboard's 2026-11-30-10-00-00 as 2026-11-30 10:00:00."""
    return f"{stamp[:10]} {stamp[11:].replace('-', ':')}"


def _receipt(files: list[Path]) -> tuple[str, str, str]:
    """The student's name, username and submission date on a Blackboard receipt among `files`
    ('Name: Mary Ann Lee (mary_ann)', 'Date Submitted: ...'), each '' when not there."""
    for receipt in files:
        if BLACKBOARD.fullmatch(receipt.name)["rest"].casefold() != ".txt":
            continue
        try:
            with open(receipt, "rb") as file:
                text = file.read(RECEIPT_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        name, date = RECEIPT_NAME.search(text), RECEIPT_DATE.search(text)
        if name or date:
            return (name["name"] if name else "", name["user"].strip() if name else "", date["date"] if date else "")
    return "", "", ""


def _classroom(folder: Path, entries: list[Path]) -> tuple[list[Student], list[str]]:
    """GitHub Classroom: one repository folder per student, named assignment-username."""
    prefix = _classroom_prefix(entries)
    students = [Student(e.name[len(prefix):], e, e.name[len(prefix):], entries=_children(e)) for e in entries
                if e.is_dir()]
    return students, [e.name for e in entries if not e.is_dir()]


def _classroom_prefix(entries: list[Path]) -> str:
    """The 'assignment-' every repository folder starts with, when two or more do and most hold a repository."""
    folders = [e for e in entries if e.is_dir()]
    if len(folders) < 2 or len(folders) < len(entries):
        return ""
    common = os.path.commonprefix([f.name for f in folders])
    prefix = common[: common.rfind("-") + 1]
    if len(prefix) < 2 or any(len(f.name) == len(prefix) for f in folders):
        return ""
    repos = sum(1 for f in folders if (f / ".git").exists() or (f / "lab").is_dir() or (f / "pyproject.toml").exists())
    return prefix if 2 * repos >= len(folders) else ""


def _children(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []
