"""`spec2code reset`: the work is saved aside, then the stubs come back (all, one step's, or a notebook)."""

import pytest

from lab.commands import reset
from lab.stubs import render
from tests.paths import REFERENCE_AGENT as REFERENCE
from tests.paths import ROOT


def test_reset_saves_the_work_then_restores_the_stubs(capsys, tmp_path):
    path = tmp_path / "agent.py"
    work = REFERENCE.read_text()
    path.write_text(work)
    assert reset.main(["--agent", str(path)]) == 0
    out = capsys.readouterr().out
    saved = list((tmp_path / "saved").glob("agent-*.py"))
    assert len(saved) == 1 and saved[0].read_text() == work
    assert path.read_text() == render()
    assert "Saved your" in out and "Restored the stubs" in out
    assert reset.main(["--agent", str(path)]) == 0
    assert "already the stubs" in capsys.readouterr().out
    assert len(list((tmp_path / "saved").glob("*.py"))) == 1


def test_reset_names_the_one_way_out_the_lab_offers_a_tab_with_unsaved_edits(capsys, tmp_path):
    extension = (ROOT / "lab" / "jupyter" / "labextension" / "src" / "index.ts").read_text()
    assert "label: 'Show the file on disk'," in extension  # the button of the warning on such a tab
    path = tmp_path / "agent.py"
    path.write_text(REFERENCE.read_text())
    assert reset.main(["--agent", str(path)]) == 0
    out = capsys.readouterr().out
    assert 'If that tab has unsaved edits, click "Show the file on disk"' in out and str(tmp_path / "saved") in out


def test_two_resets_in_one_second_keep_both_copies(tmp_path):
    path = tmp_path / "agent.py"
    copies = []
    for text in ("one = 1\n", "two = 2\n"):
        path.write_text(text)
        copies.append(reset.save_aside(path))
    assert [c.read_text() for c in copies] == ["one = 1\n", "two = 2\n"]


def test_reset_of_one_step_restores_only_that_stub(capsys, tmp_path):
    path = tmp_path / "agent.py"
    work = REFERENCE.read_text()
    path.write_text(work)
    assert reset.main(["3", "--agent", str(path)]) == 0
    now = path.read_text()
    assert 'raise NotImplementedError("step 3 (write_solution) is not started yet' in now
    assert "return extract_code(ask(prompt))" in now  # step 2, as written, is still there
    assert now.count("raise NotImplementedError") == 1
    assert [c.read_text() for c in (tmp_path / "saved").glob("*.py")] == [work]
    assert "Restored the stub of step 3 (write_solution)" in capsys.readouterr().out
    assert reset.main(["3", "--agent", str(path)]) == 0 and "already has the stub" in capsys.readouterr().out


def test_reset_of_one_step_in_a_file_that_does_not_parse_says_why(tmp_path):
    from harness.errors import LabError

    path = tmp_path / "agent.py"
    path.write_text("def extract_code(reply:\n")
    with pytest.raises(LabError, match="syntax error on line 1, so step 3 cannot be found"):
        reset.main(["3", "--agent", str(path)])
    assert path.read_text() == "def extract_code(reply:\n"


def test_a_notebook_is_restored_as_shipped(capsys, tmp_path, monkeypatch):
    import json
    import subprocess

    clean = {"cells": [{"cell_type": "code", "source": "1", "outputs": [], "execution_count": None, "metadata": {}}],
             "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    folder = tmp_path / "notebooks"
    folder.mkdir()
    path = folder / "03_write_solution.ipynb"
    path.write_text(json.dumps(clean))
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *command], cwd=tmp_path, check=True)
    worked = dict(clean, cells=[dict(clean["cells"][0], outputs=[{"output_type": "stream", "name": "stdout",
                                                                   "text": "1"}])])
    path.write_text(json.dumps(worked))
    monkeypatch.setattr(reset, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(reset, "NOTEBOOKS", folder)
    assert reset.main(["--notebook", "03"]) == 0
    assert json.loads(path.read_text()) == clean
    assert [json.loads(p.read_text()) for p in (folder / "saved").glob("*.ipynb")] == [worked]
    assert "03_write_solution.ipynb as shipped" in capsys.readouterr().out
