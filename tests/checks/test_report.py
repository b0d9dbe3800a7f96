"""checks/report: every view of a verdict stays clean when a submission's messages hold what no terminal or file
should get raw (lone surrogates, NUL bytes, undecodable bytes, terminal escapes)."""

import csv
import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import checks
from checks.grading import grade_submission
from checks.report import render
from checks.report.notebook import step_html, step_text
from checks.report.terminal import to_text
from checks.submissions import Submission
from tests.helpers import write_agent
from tests.paths import ROOT

MESSY = r'''
def extract_code(reply):
    raise ValueError("surrogate \ud800, NUL \x00, escape \x1b[2J\x1b[32m:) 5/5 steps passed\x1b[0m, return \r")

def write_tests(spec, ask=None):
    raise ValueError(b"undecodable \xff\xfe bytes".decode("utf-8", "surrogateescape"))

def holdout_check(solution_src):
    raise ValueError("<failure message=\"&\"/> ]]> \x7f\x85\ufffe")
'''
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # what must never be written raw


@pytest.fixture(scope="module")
def messy(tmp_path_factory):
    return write_agent(tmp_path_factory.mktemp("messy"), MESSY)


@pytest.fixture(scope="module")
def report(messy):
    return checks.grade_agent(messy, steps=[1, 2, 5])


@pytest.fixture(scope="module")
def graded(messy):
    return [grade_submission(Submission("messy \udcff student\x1b[1m", messy))]


def assert_clean(text: str) -> None:
    assert not RAW.search(text), RAW.search(text)
    text.encode("utf-8")  # a lone surrogate would raise here


def test_the_report_itself_holds_only_clean_text(report):
    assert_clean(json.dumps(report, ensure_ascii=False))
    message = report["steps"][0]["checks"][0]["message"]
    assert "\\ud800" in message and "\\x00" in message and "\\x1b[2J" in message  # shown, escaped


@pytest.mark.slow
def test_spec2code_check_prints_clean_text_and_json(messy):
    for fmt in ("text", "json"):
        done = subprocess.run([sys.executable, "-m", "lab.commands", "check", "1", "2", "5", "--agent", str(messy),
                               "--format", fmt], cwd=ROOT, capture_output=True, timeout=120)
        assert done.returncode == 1 and done.stderr == b""
        out = done.stdout.decode("utf-8")  # strict: fails on anything that is not UTF-8
        assert_clean(out)
        assert "5/5 steps passed" not in out.splitlines()[-1:]


def test_the_terminal_and_notebook_views_are_clean(report):
    assert_clean(to_text(report, colour=False))
    for result in report["steps"]:
        assert_clean(step_text(result, "agent.py")) and assert_clean(step_html(result, "agent.py"))


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["csv", "json", "junit", "gradescope"])
def test_every_grade_format_is_clean_and_parses(graded, fmt):
    text = render(graded, fmt)
    assert_clean(text)
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows[0]["submission"] == "messy \\udcff student\\x1b[1m"
    elif fmt == "junit":
        ET.fromstring(text.encode("utf-8"))
    else:
        json.loads(text)


def test_the_last_step_passed_points_to_the_notebook_after_it_and_each_other_step_to_the_next():
    from checks.report import notebook

    assert (ROOT / "notebooks" / notebook.BEYOND).is_file()
    last = notebook.headline({"step": 5, "status": "passed", "checks": [{"status": "passed"}]}, "agent.py")
    assert last == f"passed: all 1 checks pass. That was the last step: well done! Then have a look at `{notebook.BEYOND}`."
    assert f'<a href="{notebook.BEYOND}"><code>{notebook.BEYOND}</code></a>' in notebook.code_spans(last)
    first = notebook.headline({"step": 1, "status": "passed", "checks": [{"status": "passed"}]}, "agent.py")
    assert first.endswith("On to the next step: `02_write_tests.ipynb`.")
    assert (ROOT / "notebooks" / "02_write_tests.ipynb").is_file()
