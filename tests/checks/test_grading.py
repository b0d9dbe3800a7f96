"""checks/grading.py and the instructor's summary and progress: --credit-blocked, the isolation stated, one line per
submission that says who was slow, and progress that shows in a log as well as on a terminal."""

import contextlib
import csv
import io
import json
import os
import shutil
import time
import xml.etree.ElementTree as ET

import pytest

from checks.grading import grade_submission
from checks.report.progress import Progress
from checks.report.summary import summary
from checks.submissions import Submission
from lab.commands import grade
from tests.checks.report.test_formats import scored
from tests.helpers import contained_corpus, exit_status
from tests.shipped import stubs_file

AGENTS = contained_corpus()  # the fixture agents, as the grader's child can run them

UNSTRIPPED = AGENTS / "wrong" / "unstripped_bare_reply.py"  # step 1 fails, so steps 2-4 are blocked


@pytest.mark.slow
def test_a_blocked_step_scores_0_unless_credit_blocked_grades_its_checks_anyway():
    plain = grade_submission(Submission("u", UNSTRIPPED))
    assert [r["status"] for r in plain["steps"]] == ["failed", "blocked", "blocked", "blocked", "passed"]
    assert plain["score"] == 1
    credited = grade_submission(Submission("u", UNSTRIPPED), credit_blocked=True)
    assert [r["status"] for r in credited["steps"]] == ["failed", "passed", "passed", "passed", "passed"]
    assert credited["score"] == 4 and credited["passed"] == 4
    for result in credited["steps"][1:4]:
        assert result["credited"] == "blocked, and graded as if step 1 (extract_code) had passed (--credit-blocked)"
        assert all(c["status"] == "passed" for c in result["checks"])  # the checks ran: none says "blocked"
    assert "credited" not in credited["steps"][0] and "credited" not in credited["steps"][4]


def test_credit_blocked_leaves_a_stub_not_started(tmp_path):
    stubs = grade_submission(Submission("stubs", stubs_file(tmp_path)), credit_blocked=True)
    assert {r["status"] for r in stubs["steps"]} == {"not started"} and stubs["score"] == 0


def test_a_class_is_graded_with_one_secret_draw_of_inputs_for_everyone(monkeypatch):
    from checks import grading

    seeds = []
    def grade_agent(path, **options):
        seeds.append(options["seed"])
        return {"agent": str(path), "steps": [], "passed": 0, "total": 0}

    monkeypatch.setattr(grading, "grade_agent", grade_agent)
    grading.grade_all([Submission(f"s{n}", AGENTS / "correct" / "line_scanner.py") for n in range(4)], jobs=2)
    assert len(seeds) == 4 and len(set(seeds)) == 1 and isinstance(seeds[0], int)
    grading.grade_all([Submission("s", AGENTS / "correct" / "line_scanner.py")], jobs=1)
    assert seeds[4] != seeds[0]  # a new run, a new draw
    monkeypatch.setenv("SPEC2CODE_SEED", "20261201")
    grading.grade_all([Submission("s", AGENTS / "correct" / "line_scanner.py")], jobs=1)
    assert seeds[5] == 20261201


def test_every_graded_report_states_the_isolation_in_force():
    from harness.sandbox import isolation_level

    report = grade_submission(Submission("nothing", None, "no agent.py found"))
    assert report["isolation"] == isolation_level() in ("namespaces", "user", "process")


def test_the_summary_of_one_submission_does_not_say_how_many_at_a_time():
    text = summary([scored("only")], seconds=2.34, jobs=2)
    assert text.splitlines()[0] == "Graded 1 submission in 2.3 s: score 5/5"
    assert "at a time" not in text and "slowest" not in text
    assert "isolation: namespaces" in text


def test_the_summary_names_the_slowest_and_the_jobs_really_used():
    graded = [scored("quick", seconds=0.1), scored("slow", seconds=9.5), scored("mid", seconds=2.0),
              scored("s4", seconds=0.2)]
    text = summary(graded, seconds=12.0, jobs=8)
    assert text.splitlines()[0].startswith("Graded 4 submissions in 12.0 s (4 at a time): mean score 5.00/5")
    assert "  slowest: slow 9.5 s, mid 2.0 s, s4 0.2 s" in text


def test_off_a_terminal_progress_is_a_line_every_few_seconds_naming_what_is_graded():
    stream = io.StringIO()
    with Progress(3, stream=stream, every=0.05, terminal=False) as progress:
        progress.started("alice")
        progress.finished("alice")
        progress.started("bob\x1b[2J")
        time.sleep(0.3)
    lines = stream.getvalue().splitlines()
    assert len(lines) >= 3 and "\r" not in stream.getvalue()
    assert lines[-1].startswith("graded 1/3 in 0 s; grading bob\\x1b[2J (0 s)")


def test_on_a_terminal_progress_rewrites_one_line_and_prints_nothing_by_the_clock():
    stream = io.StringIO()
    with Progress(2, stream=stream, every=0.01, terminal=True) as progress:
        progress.started("alice")
        time.sleep(0.05)
        progress.finished("alice")
    assert stream.getvalue() == "\rgraded 1/2\r\033[K"


@pytest.mark.slow
def test_a_non_utf8_folder_name_is_safe_in_every_output(tmp_path):
    """A folder named in Latin-1 on a UTF-8 file system, holding a terminal escape, graded into every format."""
    name = os.fsdecode(b"caf\xe9 \x1b[2J")
    (tmp_path / name).mkdir()
    shutil.copy(stubs_file(tmp_path.parent / "shipped"), tmp_path / name / "agent.py")  # graded at once
    (tmp_path / "bob").mkdir()
    for fmt in ("csv", "json", "junit"):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert grade.main([str(tmp_path), "--format", fmt, "--out", str(tmp_path.parent / f"g.{fmt}")]) == 0
        text = (tmp_path.parent / f"g.{fmt}").read_text(encoding="utf-8")  # strict UTF-8
        assert "\\udce9" in text and "\x1b" not in text and "\x1b" not in err.getvalue()
        assert "\x1b" not in err.getvalue() and "\udce9" not in err.getvalue()
        if fmt == "csv":
            assert [row["submission"] for row in csv.DictReader(io.StringIO(text))] == ["bob", "caf\\udce9 \\x1b[2J"]
        elif fmt == "json":
            assert json.loads(text)[1]["steps"][0]["status"] == "not started"
        else:
            ET.fromstring(text.encode("utf-8"))
    results = tmp_path.parent / "results.json"
    assert grade.main(["--format", "gradescope", "--submission-dir", str(tmp_path / name),
                       "--results", str(results)]) == 0
    assert json.loads(results.read_text(encoding="utf-8"))["tests"][0]["output"].startswith("not started")


@pytest.mark.parametrize("args, says", [
    (["--visibility", "sometimes"], "invalid choice: 'sometimes'"),
    (["--step-visibility", "visible,hidden"], "give one visibility for every step, or 5 visibilities"),
    (["--step-visibility", "soon"], "'soon' is not one of visible, after_due_date, after_published, hidden"),
])
def test_visibility_options_are_checked(tmp_path, capsys, args, says):
    assert exit_status(grade.main, [str(stubs_file(tmp_path)), *args]) == 2
    assert says in capsys.readouterr().err
