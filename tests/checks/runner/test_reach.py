"""checks/runner/reach.py: at the user level the child always reads its own copy of the lab and of its agent,
private to its user; and before a class is graded there, the grader refuses if the reference or a classmate's
submission is open to such a user (tried for real, as one)."""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from checks.runner import reach
from harness.sandbox import reachable, slots
from harness.settings import PROJECT_ROOT
from tests.helpers import write_agent

AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="giving files to another user, and becoming one, needs root")
CHILD, OTHER = slots.FIRST_UID + 1, slots.FIRST_UID + 3  # two users of the sandbox's range (two slots' solutions)


@pytest.fixture
def open_folder():
    """A folder every user can enter, as /tmp, /opt or /srv are (pytest's own tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="spec2code-test-reach-"))
    folder.chmod(0o755)
    if not reachable.readable_by_all(folder):
        pytest.skip(f"other users cannot enter {folder.parent}")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def modes(folder: Path) -> dict:
    """{path relative to folder: (owner, mode)} for the folder and everything in it."""
    return {str(path.relative_to(folder)): (path.stat().st_uid, stat.S_IMODE(path.stat().st_mode))
            for path in [folder, *folder.rglob("*")]}


@AS_ROOT
def test_at_the_user_level_the_child_always_gets_a_copy_only_its_own_user_may_read(tmp_path):
    agent = write_agent(tmp_path / "class" / "alice", "def extract_code(reply):\n    return reply\n")
    for path in (tmp_path, tmp_path / "class", tmp_path / "class" / "alice"):
        path.chmod(0o755)
    agent.chmod(0o644)  # readable by all: copied all the same, so harness.__file__ never leads into the project
    child_folder = tmp_path / "child"
    child_folder.mkdir(mode=0o700)
    for level in ("namespaces", "process"):
        assert reach.within_reach(level, agent, str(child_folder), CHILD) == (PROJECT_ROOT, reach.HERE / "child.py",
                                                                              agent)
    assert list(child_folder.iterdir()) == []
    harness_zip, child_py, own = reach.within_reach("user", agent, str(child_folder), CHILD)
    assert own == child_folder / "agent" / "agent.py" and own.read_text() == agent.read_text()
    assert child_py == child_folder / "runner" / "child.py" and harness_zip == child_folder / "harness.zip"
    assert sorted(p.name for p in child_folder.iterdir()) == ["agent", "harness.zip", "runner"]
    assert sorted(p.name for p in child_py.parent.iterdir()) == ["child.py", "wire.py"]
    with zipfile.ZipFile(harness_zip) as archive:
        names = archive.namelist()
        assert archive.read("harness/sandbox/walls.py") == (PROJECT_ROOT / "harness/sandbox/walls.py").read_bytes()
    assert {n.split("/")[0] for n in names} == {"harness"}  # no solutions/, no lab/, no tests/
    assert "harness/__init__.py" in names and "harness/__init__.pyc" in names and "__pycache__" not in str(names)
    found = modes(child_folder)
    assert found.pop(".") == (CHILD, 0o700)  # the child's working folder
    for path, (owner, mode) in found.items():
        expected = 0o500 if (child_folder / path).is_dir() else 0o400
        assert (owner, mode) == (CHILD, expected), path
    # Small, so fast: about 1 MB, harness/'s sources and their bytecode; a data file packed by mistake would show.
    assert sum(p.stat().st_size for p in child_folder.rglob("*") if p.is_file()) < 1_250_000


def test_the_harness_in_the_zip_imports_with_its_bytecode_and_shows_its_source_in_tracebacks(tmp_path):
    (tmp_path / "harness.zip").write_bytes(reach._harness_zip())
    code = ("import sys, traceback\nsys.path.insert(0, sys.argv[1])\nimport harness\nprint(harness.__file__)\n"
            "try:\n    harness.levels.rank([])\nexcept TypeError:\n    traceback.print_exc()\n")
    done = subprocess.run([sys.executable, "-I", "-B", "-c", code, str(tmp_path / "harness.zip")], capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "harness.zip" / "harness" / "__init__.pyc")
    assert 'File "harness/levels.py"' in done.stderr and "return TABLE[name].rank" in done.stderr, done.stderr


@AS_ROOT
def test_another_user_of_the_range_cannot_open_a_childs_copy_and_its_own_user_can(open_folder):
    agent = write_agent(open_folder / "alice", "def extract_code(reply):\n    return reply\n")
    child_folder = open_folder / "child"
    child_folder.mkdir(mode=0o700)
    _, child_py, own = reach.within_reach("user", agent, str(child_folder), CHILD)
    paths = [str(own), str(child_py)]
    assert reach._opened_as(OTHER, paths) == []
    assert reach._opened_as(CHILD, paths) == [0, 1]


@pytest.fixture
def reference(open_folder, monkeypatch):
    """A lab's solutions/ in a folder every user can enter, as the reference the guard looks for."""
    lab = open_folder / "opt" / "lab"
    agent = write_agent(lab / "solutions", "def extract_code(reply):\n    return reply\n")
    for path in (open_folder / "opt", lab, lab / "solutions"):
        path.chmod(0o755)
    agent.chmod(0o644)
    monkeypatch.setattr(reach, "reference_files", lambda: {agent: lab / "solutions"})
    return agent


def a_class(base: Path, mode: int) -> list[Path]:
    agents = [write_agent(base / "class" / name, "x = 1\n") for name in ("alice", "bob")]
    for path in (base / "class", *(a.parent for a in agents)):
        path.chmod(mode)
    for agent in agents:
        agent.chmod(0o644)
    return agents


@AS_ROOT
def test_a_reference_every_user_can_read_is_refused_at_the_user_level_with_the_fix(reference):
    for levels in (("namespaces", "namespaces"), ("process", "process")):
        reach.guard(levels, [])  # nothing to check where a child sees none of it, or is the grader's own user
    for levels in (("user", "user"), ("namespaces", "user")):
        with pytest.raises(reach.Exposed) as refused:
            reach.guard(levels, [])
        assert str(refused.value) == (
            f"refusing to grade: every user can read {reference}, so a submission could copy the reference: make "
            f"its folder private (chmod go-rwx {reference.parent}) or grade where namespaces are available")


@AS_ROOT
@pytest.mark.parametrize("mode", [0o700, 0o750, 0o711], ids=["owner only", "group only", "enter but not list"])
def test_a_reference_no_user_of_the_range_can_open_lets_grading_go_on(reference, mode):
    reference.parent.chmod(mode)
    if mode == 0o711:
        reference.chmod(0o640)  # group-readable only: the range's users have no group
    reach.guard(("user", "user"), [])


@AS_ROOT
def test_classmates_every_user_can_read_are_refused_naming_the_class_folder(open_folder, reference):
    reference.parent.chmod(0o700)
    agents = a_class(open_folder, 0o755)
    reach.guard(("user", "user"), agents[:1])  # one submission: its own file is no classmate's
    with pytest.raises(reach.Exposed) as refused:
        reach.guard(("user", "user"), agents)
    assert str(refused.value) == (
        f"refusing to grade: every user can read {agents[0]}, so a submission could copy a classmate's submission: "
        f"make its folder private (chmod go-rwx {open_folder / 'class'}) or grade where namespaces are available")
    (open_folder / "class").chmod(0o700)
    reach.guard(("user", "user"), agents)


@AS_ROOT
def test_files_named_one_by_one_in_folders_far_apart_name_the_folder_of_the_one_open(open_folder, reference):
    reference.parent.chmod(0o700)
    agents = a_class(open_folder, 0o755)
    far = Path("/var/tmp") / f"spec2code-test-{os.getpid()}.py"
    far.write_text("x = 1\n")
    far.chmod(0o600)
    try:
        with pytest.raises(reach.Exposed, match=rf"\(chmod go-rwx {agents[0].parent}\)"):
            reach.guard(("user", "user"), [agents[0], far])
    finally:
        far.unlink()


def test_the_reference_files_are_the_labs_solutions_agent_first():
    found = reach.reference_files()
    solutions = (PROJECT_ROOT / "solutions").resolve()
    if not solutions.is_dir():
        pytest.skip("the lab is installed without solutions/")
    assert next(iter(found)) == (solutions / "agent.py") and set(found.values()) >= {PROJECT_ROOT / "solutions"}
    assert solutions / "__init__.py" in found
