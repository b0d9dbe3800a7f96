"""`spec2code compare`: a warning first, then your function beside the reference's."""



from lab.commands import compare
from lab.commands.stubs import render


def test_compare_warns_first_then_shows_yours_and_the_reference(capsys, tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render())
    assert compare.main(["4", "--agent", str(path)]) == 0
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
