"""`spec2code compare`: a warning first, then your function beside the reference's."""



from lab.commands import compare
from lab.stubs import render


def test_compare_warns_first_then_shows_yours_and_the_reference(capsys, tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render())
    assert compare.main(["4", "--agent", str(path), "--yes"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("This shows the reference solution. Try first!")
    yours, reference = out.split("--- reference")
    assert "--- yours" in yours and "still the stub" in yours
    assert "def solve(" in reference and "def _describe_failure(" in reference
    assert "Step 1" not in out


def test_compare_copes_with_a_file_that_does_not_parse(capsys, tmp_path):
    path = tmp_path / "agent.py"
    path.write_text("def extract_code(:\n")
    assert compare.main(["1", "--agent", str(path)]) == 0
    assert "syntax error on line 1" in capsys.readouterr().out


def test_a_step_not_started_is_not_shown_without_asking(capsys, tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render().replace(
        'raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")',
        "return reply.strip()",
    ))
    assert compare.main(["--agent", str(path)]) == 0  # no terminal to ask on: only the started step is shown
    out = capsys.readouterr().out
    assert "--- yours" in out and out.count("--- reference") == 1 and "return reply.strip()" in out
    assert "Not shown, because you have not started them yet: steps 2 (write_tests), 3 (write_solution)" in out
    assert "def solve(" not in out and "`spec2code compare 2 --yes` shows the reference anyway" in out


def test_asked_on_a_terminal_the_student_chooses(capsys, tmp_path, monkeypatch):
    path = tmp_path / "agent.py"
    path.write_text(render())
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["y", ""])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert compare.main(["1", "--agent", str(path)]) == 0 and "--- reference" in capsys.readouterr().out
    assert compare.main(["2", "--agent", str(path)]) == 0 and "--- reference" not in capsys.readouterr().out
