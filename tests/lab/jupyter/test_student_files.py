"""`spec2code lab --student-files`: a student's own files, copied from the install, never over one of theirs."""

import json

import pytest

from harness.errors import LaunchError
from harness.settings import PROJECT_ROOT
from lab.jupyter import launcher, student_files
from lab.stubs import render


def test_a_new_folder_gets_the_stubs_try_it_and_every_notebook_and_nothing_of_the_install(tmp_path):
    lines = student_files.put(tmp_path / "mine")
    names = sorted(p.relative_to(tmp_path / "mine").as_posix() for p in (tmp_path / "mine").rglob("*") if p.is_file())
    notebooks = sorted(f"notebooks/{p.name}" for p in (PROJECT_ROOT / "notebooks").glob("*.ipynb"))
    assert names == sorted([".gitignore", "lab/agent.py", "lab/try_it.py", *notebooks])
    assert len(notebooks) == 7 and all(line.startswith("put  ") for line in lines)
    assert (tmp_path / "mine" / "lab" / "agent.py").read_text() == render()
    for name in notebooks:
        assert json.loads((tmp_path / "mine" / name).read_bytes()) == json.loads((PROJECT_ROOT / name).read_bytes())
    assert sum(p.stat().st_size for p in (tmp_path / "mine").rglob("*") if p.is_file()) < 200_000  # not 589 MB
    assert ".cache/" in (tmp_path / "mine" / ".gitignore").read_text().split()


def test_a_file_already_there_is_kept_as_the_student_left_it(tmp_path):
    student_files.put(tmp_path)
    agent, notebook = tmp_path / "lab" / "agent.py", tmp_path / "notebooks" / "01_extract_code.ipynb"
    agent.write_text("def extract_code(reply):\n    return reply\n")
    notebook.unlink()
    lines = student_files.put(tmp_path)
    assert agent.read_text() == "def extract_code(reply):\n    return reply\n"
    assert "kept lab/agent.py (already there)" in lines and "put  notebooks/01_extract_code.ipynb" in lines
    assert notebook.is_file()


def test_the_installs_own_folder_is_refused(tmp_path):
    with pytest.raises(LaunchError, match="is the lab's own folder"):
        student_files.put(PROJECT_ROOT)


def test_the_command_says_what_it_put_and_what_it_kept(tmp_path, capsys):
    assert launcher.main(["--student-files", str(tmp_path / "s")]) == 0
    assert launcher.main(["--student-files", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out
    assert out.count(f"The student's files in {tmp_path / 's'}:") == 2
    assert "  put  lab/agent.py" in out and "  kept lab/agent.py (already there)" in out
    assert launcher.main(["--student-files", str(PROJECT_ROOT)]) == 1
    assert "is the lab's own folder" in capsys.readouterr().err


@pytest.mark.slow
def test_with_no_folder_named_the_files_go_to_the_students_folder(tmp_path):
    import os
    import subprocess
    import sys

    environ = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "SPEC2CODE_STUDENT_DIR": "~/spec2code-lab"}
    command = [sys.executable, "-m", "lab.commands", "lab", "--student-files"]
    done = subprocess.run(command, cwd=tmp_path, env=environ, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "spec2code-lab" / "lab" / "agent.py").read_text() == render()
    unset = subprocess.run(command, cwd=tmp_path, env={**environ, "SPEC2CODE_STUDENT_DIR": ""}, capture_output=True,
                           text=True)
    assert unset.returncode == 1 and "or set SPEC2CODE_STUDENT_DIR" in unset.stderr
