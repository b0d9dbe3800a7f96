"""Finding the submissions to grade: agent.py files, students' folders, class folders, each one row."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.settings import shown

AGENT = "agent.py"
SKIPPED_DIRS = {"__pycache__", "__MACOSX", "node_modules", "venv"}  # never a student's submission


@dataclass(frozen=True)
class Submission:
    """One student's work: a name for the row, the agent.py to grade (None if none was found), and a note."""

    name: str
    path: Path | None
    note: str = ""


def find_submissions(names: list[str], *, gradescope: bool = False, submission_dir=None) -> list[Submission]:
    """The submissions named on the command line, in a stable order (by name), or UsageError.

    With `gradescope`, one submission: the one folder or file named, else `submission_dir`.
    """
    if gradescope:
        if len(names) > 1:
            raise UsageError("--format gradescope grades one submission at a time: give one SUBMISSION, or none")
        folder = Path(names[0] if names else submission_dir).expanduser()
        if not folder.exists():
            raise UsageError(f"there is no {folder}: give the student's folder with --submission-dir")
        if folder.is_file():
            return [Submission(folder.stem, folder)]
        return [_one_folder(folder, "submission")]
    if not names:
        raise UsageError("no SUBMISSION given: name agent.py files or folders of submissions")
    found: list[Submission] = []
    for text in names:
        path = Path(text).expanduser()
        if not path.exists():
            raise UsageError(f"there is no file or folder {text}")
        if path.is_file():
            found.append(Submission(_file_name(path), path))
        elif (path / AGENT).is_file() or (path / "lab" / AGENT).is_file():
            found.append(_one_folder(path, path.resolve().name))
        else:
            entries = [e for e in _visible(path) if e.is_dir() or e.suffix == ".py"]
            if not entries:
                raise UsageError(f"no submissions found in {text}: it has no agent.py, no subfolders, no .py files")
            found += [_one_folder(e, e.name) if e.is_dir() else Submission(e.stem, e) for e in entries]
    return _unique(found)


def _one_folder(folder: Path, name: str) -> Submission:
    """A student's folder: its agent.py directly inside, else one level down (lab/ first)."""
    if (folder / AGENT).is_file():
        return Submission(name, folder / AGENT)
    below = sorted((e / AGENT for e in _visible(folder) if e.is_dir() and (e / AGENT).is_file()),
                   key=lambda p: (p.parent.name != "lab", p.parent.name))
    if not below:
        return Submission(name, None, f"no {AGENT} found in {folder.name}/ (nor one level down)")
    note = ""
    if len(below) > 1:
        note = f"{len(below)} {AGENT} files found; graded {below[0].parent.name}/{AGENT}"
    return Submission(name, below[0], note)


def _visible(folder: Path) -> list[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot read the folder {folder}: {exc.strerror}") from None
    return [e for e in entries if not e.name.startswith((".", "_")) and e.name not in SKIPPED_DIRS]


def _file_name(path: Path) -> str:
    """A file's submission name: its folder's for an agent.py (class/alice/agent.py is alice), else its stem."""
    resolved = path.resolve()
    if resolved.name != AGENT:
        return resolved.stem
    folder = resolved.parent
    return folder.parent.name if folder.name == "lab" and folder.parent.name else folder.name


def _unique(found: list[Submission]) -> list[Submission]:
    """Each file once; names made unique (a clash keeps the shown path); sorted by name."""
    seen, kept = set(), []
    for one in found:
        key = one.path.resolve() if one.path else ("missing", one.name, one.note)
        if key not in seen:
            seen.add(key)
            kept.append(one)
    counts: dict[str, int] = {}
    for one in kept:
        counts[one.name] = counts.get(one.name, 0) + 1
    renamed = [
        Submission(shown(one.path) if one.path else f"{one.name} ({one.note})", one.path, one.note)
        if counts[one.name] > 1 else one
        for one in kept
    ]
    return sorted(renamed, key=lambda one: (one.name.casefold(), one.name))
