"""checks/runner/reach.py: at the user level the child reads the lab and the agent where they are if every user
can, else from a read-only copy in its own folder; at the other levels always where they are."""

import os
import stat

from checks.runner import reach
from harness.settings import PROJECT_ROOT
from tests.helpers import write_agent


def test_readable_by_all_looks_at_every_folder_on_the_way(tmp_path):
    private = tmp_path / "home"
    agent = write_agent(private, "x = 1\n")
    os.chmod(agent, 0o644)
    for folder in (tmp_path, private):
        os.chmod(folder, 0o755)
    assert reach.readable_by_all(agent) == reach.readable_by_all(tmp_path.parent)
    os.chmod(private, 0o700)
    assert not reach.readable_by_all(agent)
    assert not reach.readable_by_all(tmp_path / "missing.py")


def test_a_private_agent_is_copied_for_the_user_level_only(tmp_path):
    private = tmp_path / "home"
    agent = write_agent(private, "def extract_code(reply):\n    return reply\n")
    os.chmod(private, 0o700)
    child_folder = tmp_path / "child"
    child_folder.mkdir(mode=0o700)
    for level in ("namespaces", "process"):
        assert reach.within_reach(level, agent, str(child_folder)) == (PROJECT_ROOT, reach.HERE / "child.py", agent)
    root, child_py, own = reach.within_reach("user", agent, str(child_folder))
    assert own.read_text() == agent.read_text() and own.parent.parent == child_folder
    assert child_py == root / "checks" / "runner" / "child.py" and child_py.is_file()
    assert (root / "harness" / "sandbox" / "walls.py").is_file() and not list(root.rglob("__pycache__"))
    assert not (root / "solutions").exists() and not (root / "lab").exists()  # only what the child needs
    for path in (child_folder, root, own):
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o044 and not mode & 0o022, path  # every user reads; only root writes
