"""What the agent's child may read at the `user` level, where it has a user of its own but the whole file system in
view: its own copy of the lab's files and of its agent, private to its user, and, before a class is graded, a
check that neither the reference agent nor a classmate's submission is open to such a user."""

from __future__ import annotations

import importlib.util
import io
import marshal
import os
import zipfile
from pathlib import Path

from harness.errors import LabError
from harness.levels import USER
from harness.settings import PROJECT_ROOT, REFERENCE_AGENT

HERE = Path(__file__).resolve().parent
RUNNER = ("child.py", "wire.py")  # what of this folder the child reads (child.py loads wire.py beside it)
_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_ZIPPED: dict[tuple, bytes] = {}  # harness.zip, by the names, times and sizes of the files it was made of


class Exposed(LabError):
    """At the `user` level a file no submission may read (the reference, a classmate's agent) is open to any user,
    and the lab cannot hide it without a mount namespace: grading is refused, and the message says how to fix it."""


def within_reach(level: str, agent: Path, folder: str, uid: int) -> tuple[Path, Path, Path]:
    """(where the child imports harness from, child.py, the agent) as the child will read them. At the `namespaces`
    level the lab's files are bound read-only into its own root, and at `process` it is your user: where they are.
    At `user` it could open any file any user may read, so it never reads the project in place (harness.__file__
    would lead it to solutions/): the root parent writes what it needs into `folder` (harness/ as one zip, two
    modules of this folder, the agent) and hands it to the child's user `uid` before the child starts: `folder`
    700, the rest 500 and 400, so no other user (a classmate graded at the same time) can open any of it."""
    if level != USER:
        return PROJECT_ROOT, HERE / "child.py", agent
    base = Path(folder)
    _write(base / "harness.zip", _harness_zip(), uid)
    for name in RUNNER:
        _write(base / "runner" / name, (HERE / name).read_bytes(), uid)
    own = base / "agent" / agent.name
    _write(own, agent.read_bytes(), uid)
    _hand_over(folder, uid)
    return base / "harness.zip", base / "runner" / "child.py", own


def _harness_zip() -> bytes:
    """harness/ as one zip, its sources each with its bytecode (so no child compiles them again): one file to write
    per child, not forty. Made again only when a file of harness/ changed."""
    paths = sorted((PROJECT_ROOT / "harness").rglob("*.py"))
    key = tuple((str(path), *_stamp(path)) for path in paths)
    data = _ZIPPED.get(key)
    if data is None:
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_STORED) as archive:
            for path in paths:
                name, source = path.relative_to(PROJECT_ROOT).as_posix(), path.read_bytes()
                archive.writestr(name, source)
                archive.writestr(name[:-3] + ".pyc", _bytecode(source, name))
        data = packed.getvalue()
        _ZIPPED.clear()
        _ZIPPED[key] = data
    return data


def _bytecode(source: bytes, name: str) -> bytes:
    """A .pyc of `source` that Python loads without comparing it to the source (PEP 552, unchecked hash)."""
    flags = (0b01).to_bytes(4, "little")
    code = compile(source, name, "exec", dont_inherit=True)
    return importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source) + marshal.dumps(code)


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_mtime_ns, info.st_size


def _write(path: Path, data: bytes, uid: int) -> None:
    """A file only `uid` may read, in folders made private to root until _hand_over gives them away."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, _FILE, 0o400)
    try:
        os.fchown(fd, uid, uid)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _hand_over(folder: str, uid: int) -> None:
    """Give the copy's folders to `uid`, read-only (500), deepest first, and `folder` itself last (700: the child's
    working folder), so that no other user can enter it at any moment, nor the child before it is whole."""
    for path, _, _ in os.walk(folder, topdown=False):
        os.chown(path, uid, uid)
        os.chmod(path, 0o700 if path == folder else 0o500)


# --- before a class is graded -----------------------------------------------------------------------------------


def reference_files() -> dict[Path, Path]:
    """The reference agent's files beside the lab, each with its solutions/ folder (none where the lab is installed
    without it, as from Gradescope's zip), the agent itself first; compiled copies too: they hold it as well."""
    folders = {PROJECT_ROOT / "solutions"}
    spec = importlib.util.find_spec("solutions")
    if spec is not None and spec.submodule_search_locations:
        folders |= {Path(p) for p in spec.submodule_search_locations}
    found = {path.resolve(): folder for folder in folders if folder.is_dir() for path in folder.rglob("*")
             if path.is_file()}
    first = REFERENCE_AGENT.resolve()
    return dict(sorted(found.items(), key=lambda item: (item[0] != first, str(item[0]))))


def guard(levels_in_force, submissions: list[Path]) -> None:
    """Before grading, where a child or a run is at the `user` level: Exposed if a user of the sandbox's range
    could open the reference agent, or (with more than one submission) any submission, which is a classmate's to
    all the others. Tried for real, as such a user, so modes, groups and ACLs all count. Elsewhere nothing needs
    checking: at `namespaces` a child sees none of it, and at `process` it is the grader's own user."""
    if USER not in levels_in_force:
        return
    reference = reference_files()
    agents = [Path(os.path.abspath(path)) for path in dict.fromkeys(submissions)]
    classmates = agents if len(agents) > 1 else []
    try:
        opened = readable_by_sandbox_user([*reference, *classmates])
    except OSError as exc:
        opened = None
        why = str(exc)
    else:
        why = "no user of the sandbox's range was free"
    if opened is None:
        raise Exposed(f"refusing to grade: what a submission can read could not be checked ({why}); grade again "
                      "when other gradings have finished, or where namespaces are available")
    if opened:
        path = opened[0]
        if path in reference:
            folder, what = reference[path], "the reference"
        else:
            folder, what = _class_folder(classmates, path), "a classmate's submission"
        # The folder alone, not -R: its files stay readable where a child is handed its own file to read (namespaces).
        raise Exposed(f"refusing to grade: every user can read {path}, so a submission could copy {what}: make "
                      f"its folder private (chmod go-rwx {folder}) or grade where namespaces are available")


def _class_folder(agents: list[Path], path: Path) -> Path:
    """The folder holding every submission (the class), or the folder of `path` when they have only `/` or a
    folder of `/` in common (files named one by one): never a fix that reaches far beyond the submissions."""
    common = Path(os.path.commonpath([agent.parent for agent in agents]))
    return common if len(common.parts) > 2 else path.parent


def readable_by_sandbox_user(paths: list[Path]) -> list[Path] | None:
    """Those of `paths` that a user of the sandbox's range (a slot's, taken for the purpose) can open for reading;
    None if no slot is free. Tried for real, in a forked process that becomes that user; OSError if it cannot be."""
    from harness.sandbox import slots

    folder = slots.lock_folder()
    slot = slots.acquire(folder) if folder else None
    if slot is None:
        return None
    try:
        return [paths[i] for i in _opened_as(slot.solution, [str(p) for p in paths])]
    finally:
        slots.release(slot)


def _opened_as(uid: int, paths: list[str]) -> list[int]:
    """The indexes of the `paths` that user `uid`, with no groups, opens for reading (as the ladder switches)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # system calls only from here on: another thread may hold a lock this copy of it cannot release
        try:
            os.close(read)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            for i, path in enumerate(paths):
                try:
                    os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY))
                except OSError:
                    continue
                os.write(write, b"%d\n" % i)
            os._exit(0)
        except BaseException:  # noqa: BLE001 - the parent reads the exit status
            os._exit(1)
    os.close(write)
    with os.fdopen(read, "rb") as said:
        opened = [int(line) for line in said.read().split()]
    _, status = os.waitpid(pid, 0)
    if status != 0:
        raise OSError(f"no process could become user {uid}")
    return opened
