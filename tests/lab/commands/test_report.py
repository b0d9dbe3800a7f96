"""lab/commands/report.py: `spec2code report GRADES.json` writes the class page, and says plainly what is wrong."""

import json

import pytest

from lab import commands as cli
from tests.checks.report.test_formats import scored


def test_the_report_is_written_from_the_grades_json(tmp_path, capsys):
    grades = tmp_path / "grades.json"
    grades.write_text(json.dumps([scored("s1"), scored("s2", ("failed",) * 5)]), encoding="utf-8")
    out = tmp_path / "out" / "class.html"
    assert cli.main(["report", str(grades), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"Wrote {out}: 2 submissions. Open it in a browser.\n"
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<code>grades.json</code>" in html


@pytest.mark.parametrize("content, says", [
    (None, "there is no file {grades}"),
    ("{not json", "{grades} is not JSON"),
    ('{"submission": "one report, not a list"}', "{grades} is not a class's grades"),
    ('[{"steps": []}]', "{grades} is not a class's grades"),
])
def test_a_file_that_is_not_a_class_grades_is_a_usage_error(tmp_path, capsys, content, says):
    grades = tmp_path / "grades.json"
    if content is not None:
        grades.write_text(content, encoding="utf-8")
    assert cli.main(["report", str(grades), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spec2code report: ") and says.format(grades=grades) in err and err.count("\n") == 1
