"""`spec2code reset`: the work is saved aside, then the stubs come back."""



from lab.commands import reset
from lab.commands.stubs import render
from tests.paths import REFERENCE_AGENT as REFERENCE


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


def test_two_resets_in_one_second_keep_both_copies(tmp_path):
    path = tmp_path / "agent.py"
    copies = []
    for text in ("one = 1\n", "two = 2\n"):
        path.write_text(text)
        copies.append(reset.save_aside(path))
    assert [c.read_text() for c in copies] == ["one = 1\n", "two = 2\n"]
