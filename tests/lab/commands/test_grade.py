"""`spec2code grade`: a small class of known agents graded once, then checked in every output format."""

import atexit
import contextlib
import csv
import io
import json
import shutil
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from checks.grading import NOTE_LENGTH, score
from checks.report import formats as grade_formats
from checks.report.gradescope import to_gradescope
from checks.steps import STEPS
from checks.submissions import Submission
from harness.settings import REFERENCE_AGENT
from lab.commands import grade
from tests.checks.report import gradescope_spec
from tests.helpers import contained_corpus, exit_status
from tests.paths import AGENTS
from tests.schemas import junit_schema
from tests.shipped import stubs_file

# The stubs as shipped, in a copy of the lab's layout (a student's lab/agent.py plays no part). Its folder names it.
_STUBS_HOME = Path(tempfile.mkdtemp(prefix="spec2code-grade-"))
atexit.register(shutil.rmtree, _STUBS_HOME, True)
STUBS = stubs_file(_STUBS_HOME / "lab-copy")
N_STEPS = len(STEPS)

WRONG = contained_corpus() / "wrong"  # the corpus of typical mistakes, each breaking one step
AGENTS_CORRECT = AGENTS / "correct"  # agents written other ways, each passing every step

# name -> expected total score (one point per step).
EXPECTED = {
    "empty": 0,  # a folder with no agent.py
    "forger": 0,  # stubs that try to forge their grade at import
    "hangs": 0,  # extract_code loops forever
    "latin1": 0,  # not UTF-8
    "messy": 0,  # raises messages full of characters that XML and UTF-8 cannot hold
    "holdout_counts_failures": 4,  # holdout_check returns a count: step 5 fails
    "unstripped_bare_reply": 1,  # extract_code does not strip a bare reply: step 1 fails, 2-4 are blocked, 5 passes
    "reference": 5,
    "stubs": 0,
    "syntax_error": 0,
}

FORGER = '''\
"""Stubs that try to forge a grade from inside the grader's child process."""
import json, os, sys
FORGED = "FORGED"
for target in {targets!r}:
    try:
        with open(target, "w") as f:
            f.write('submission,step1,step2,step3,step4,step5,total,max,notes\\nforger,1,1,1,1,1,5,5,FORGED\\n')
    except OSError:
        pass
print("forger,1,1,1,1,1,5,5,FORGED")
print('{{"score": 5, "tests": []}}', file=sys.stderr)
try:  # a made-up "ready" on the grader's channel, as if the load were already done
    os.write(int(sys.argv[4]), (json.dumps({{"ready": ["extract_code"]}}) + "\\n").encode())
except Exception:
    pass
try:
    import checks
    checks.grade_agent = lambda *a, **k: {{"agent": "x", "steps": [], "passed": 5, "total": 5}}
except Exception:
    pass
'''

MESSY = '''\
def extract_code(reply):
    raise ValueError("bad \\x00 \\x1b[31m \\ud800 <tag attr=\\"&\\"> ]]> \\x7f")

def holdout_check(solution_src):
    raise ValueError("\\x01\\x02 \\udcff <&>")
'''


STEP1_STUB = (
    '    raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")\n'
)


def make_class(folder: Path, out: Path) -> Path:
    """A class folder in the usual LMS export layout: one subfolder (or one .py file) per student."""
    stubs = STUBS.read_text()
    assert STEP1_STUB in stubs
    files = {
        "reference/agent.py": REFERENCE_AGENT.read_text(),
        "stubs/lab/agent.py": stubs,  # one level down, as in a copy of the whole lab
        "unstripped_bare_reply/agent.py": (WRONG / "unstripped_bare_reply.py").read_text(),
        "holdout_counts_failures.py": (WRONG / "holdout_counts_failures.py").read_text(),  # a bare file
        "syntax_error/agent.py": "def extract_code(reply:\n    return reply\n",
        "forger/agent.py": FORGER.format(targets=[str(out), str(out.parent / "results.json")]) + stubs,
        "hangs/agent.py": stubs.replace(STEP1_STUB, "    while True:\n        pass\n"),
        "messy/agent.py": MESSY,
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "latin1").mkdir()
    (folder / "latin1" / "agent.py").write_bytes(b'def extract_code(reply):\n    return "caf\xe9"\n')
    (folder / "empty").mkdir()
    (folder / "empty" / "notes.txt").write_text("forgot to upload")
    (folder / ".DS_Store").write_text("")  # hidden files are not submissions
    return folder


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The class graded once through the command (JSON to a file, 2 at a time): (exit code, reports, stderr, out)."""
    base = tmp_path_factory.mktemp("grade")
    out = base / "out" / "grades.json"
    folder = make_class(base / "class", out)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = grade.main([str(folder), "--format", "json", "--out", str(out), "--jobs", "2"])
    return code, json.loads(out.read_text(encoding="utf-8")), err.getvalue(), out


@pytest.fixture(scope="module")
def reports(graded_class):
    return graded_class[1]


def by_name(reports):
    return {one["submission"]: one for one in reports}


# --- scores --------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_grading_completes_with_exit_0_and_a_summary_on_stderr(graded_class):
    code, reports, err, _ = graded_class
    assert code == 0
    assert f"Graded {len(EXPECTED)} submissions" in err
    assert "mean score 1.00/5" in err
    assert "step 5 holdout_check  passed by 2/10 (20%)" in err
    assert "not graded (missing, did not load): empty, latin1, syntax_error" in err


@pytest.mark.slow
def test_every_submission_gets_its_exact_score_in_name_order(reports):
    assert [one["submission"] for one in reports] == sorted(EXPECTED)
    assert {one["submission"]: one["score"] for one in reports} == EXPECTED
    assert all(one["max_score"] == N_STEPS for one in reports)


@pytest.mark.slow
def test_per_step_scores_follow_the_engine_statuses(reports):
    graded = by_name(reports)
    unstripped = graded["unstripped_bare_reply"]["steps"]
    assert [r["score"] for r in unstripped] == [0, 0, 0, 0, 1]
    assert [r["status"] for r in unstripped] == ["failed", "blocked", "blocked", "blocked", "passed"]
    assert [r["score"] for r in graded["holdout_counts_failures"]["steps"]] == [1, 1, 1, 1, 0]
    assert {r["status"] for r in graded["stubs"]["steps"]} == {"not started"}


@pytest.mark.slow
def test_each_failure_gets_a_short_note_that_says_why(reports):
    notes = {one["submission"]: one["note"] for one in reports}
    assert notes["reference"] == ""
    assert notes["stubs"] == "step 1 (extract_code) not started"
    assert notes["empty"] == "no agent.py found in empty/; it holds notes.txt"  # names what was there
    assert notes["syntax_error"].startswith("agent.py has a syntax error on line 1")
    assert "utf-8" in notes["latin1"]
    loop = STUBS.read_text().splitlines().index(STEP1_STUB.rstrip("\n")) + 1  # where the hanging loop was put
    hung = "step 1 (extract_code): extract_code ran for more than 3 s and was stopped (agent.py line {0}): line {0}: "
    assert notes["hangs"] in (hung.format(loop) + "while True:", hung.format(loop + 1) + "pass")  # the loop, its body
    assert notes["holdout_counts_failures"].startswith("step 5 (holdout_check):")
    assert all(len(note) <= NOTE_LENGTH and "\n" not in note for note in notes.values())


@pytest.mark.slow
def test_a_forging_agent_gains_nothing_and_cannot_touch_the_output(graded_class):
    _, reports, _, out = graded_class
    forger = by_name(reports)["forger"]
    assert forger["score"] == 0
    assert all(r["score"] == 0 for r in forger["steps"])
    assert "FORGED" not in out.read_text(encoding="utf-8")  # it wrote there at import; the grade replaced it


@pytest.mark.slow
def test_partial_credit_and_points_per_step(reports):
    unstripped = json.loads(json.dumps(by_name(reports)["unstripped_bare_reply"]))
    step1 = unstripped["steps"][0]["checks"]
    fraction = sum(c["status"] == "passed" for c in step1) / len(step1)
    assert 0 < fraction < 1
    partial = score(unstripped, Submission("unstripped_bare_reply", None), (2.0,) * N_STEPS, True, 0.0)
    assert partial["steps"][0]["score"] == round(2 * fraction, 4)
    assert partial["steps"][4]["score"] == 2 and partial["max_score"] == 10
    whole = score(unstripped, Submission("unstripped_bare_reply", None), (1, 1, 1, 1, 6), False, 0.0)
    assert whole["score"] == 6 and whole["max_score"] == 10


# --- formats -------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_csv_has_one_row_per_submission_with_scores_a_spreadsheet_reads(reports):
    rows = list(csv.DictReader(io.StringIO(grade_formats.to_csv(reports))))
    assert list(rows[0]) == ["submission", "name", "id", "late", "submitted", "step1", "step2", "step3", "step4",
                             "step5", "total", "max", "similar", "notes"]
    assert [row["submission"] for row in rows] == sorted(EXPECTED)
    assert {row["submission"]: int(row["total"]) for row in rows} == EXPECTED
    reference = next(row for row in rows if row["submission"] == "reference")
    assert [reference[f"step{n}"] for n in range(1, 6)] == ["1"] * 5 and reference["max"] == "5"


@pytest.mark.slow
def test_csv_never_starts_a_cell_with_a_formula(reports):
    one = dict(reports[0], submission="=HYPERLINK(\"http://x\")")
    row = next(csv.reader(io.StringIO(grade_formats.to_csv([one]).splitlines()[1])))
    assert row[0].startswith("'=")


@pytest.mark.slow
def test_junit_parses_and_counts_every_check(reports):
    root = ET.fromstring(grade_formats.to_junit(reports).encode("utf-8"))
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert list(suites) == sorted(EXPECTED)
    for one in reports:
        suite, checks = suites[one["submission"]], [c for r in one["steps"] for c in r["checks"]]
        assert int(suite.get("tests")) == len(checks) == len(suite.findall("testcase"))
        failures = sum(c["status"] == "failed" for c in checks)
        assert int(suite.get("failures")) == failures == len(suite.findall("testcase/failure"))
        assert int(suite.get("skipped")) == len(suite.findall("testcase/skipped"))
    assert suites["reference"].get("failures") == suites["reference"].get("skipped") == "0"
    assert suites["stubs"].get("failures") == "0" and suites["stubs"].get("skipped") == suites["stubs"].get("tests")
    assert suites["syntax_error"].get("tests") == suites["syntax_error"].get("failures") == str(N_STEPS)
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites.values())


@pytest.mark.slow
def test_the_class_in_junit_is_valid_against_junit_10_xsd(reports):
    xmlschema = pytest.importorskip("xmlschema", reason="install the dev extra: pip install -e '.[dev]'")
    schema = xmlschema.XMLSchema(str(junit_schema()))
    schema.validate(grade_formats.to_junit(reports))


@pytest.mark.slow
def test_junit_survives_messages_xml_cannot_hold(reports):
    text = grade_formats.to_junit([by_name(reports)["messy"]])
    failure = ET.fromstring(text.encode("utf-8")).find(".//failure")
    assert "<tag attr=\"&\">" in failure.get("message") and "\x00" not in failure.text


@pytest.mark.slow
def test_json_is_the_engine_report_plus_scores(reports):
    reference = by_name(reports)["reference"]
    added = {"submission", "score", "max_score", "note", "seconds"}
    assert {"agent", "steps", "passed", "total"} | added <= set(reference)
    assert reference["passed"] == reference["total"] == N_STEPS
    assert [r["step"] for r in reference["steps"]] == [s.number for s in STEPS]
    json.dumps(reports, ensure_ascii=False).encode("utf-8")  # lone surrogates from a submission were replaced


def check_gradescope(results: dict, score: float) -> None:
    """The fields and types of Gradescope's results.json specification, and the score."""
    gradescope_spec.validate(results)
    assert results["score"] == score and len(results["tests"]) == N_STEPS
    assert results["output_format"] == "text"  # `<module>` in a message is shown as written, not read as HTML
    assert sum(test["score"] for test in results["tests"]) == score


@pytest.mark.slow
def test_gradescope_results_for_each_kind_of_submission(reports):
    for one in reports:
        check_gradescope(json.loads(to_gradescope([one])), EXPECTED[one["submission"]])
    unstripped = json.loads(to_gradescope([by_name(reports)["unstripped_bare_reply"]]))
    assert unstripped["tests"][0]["status"] == "failed" and ":(" in unstripped["tests"][0]["output"]
    assert "hint:" in unstripped["tests"][0]["output"] and unstripped["tests"][4]["status"] == "passed"
    assert unstripped["tests"][1]["output"].startswith(
        "blocked until step 1 (extract_code) passes; until then, what its checks find now (no credit yet):\n:| ")


def test_gradescope_layout_reads_the_submission_and_writes_results_json(tmp_path, capsys):
    submission, results = tmp_path / "submission", tmp_path / "results" / "results.json"
    (submission / "lab").mkdir(parents=True)
    stubs = STUBS.read_text()
    (submission / "lab" / "agent.py").write_text(FORGER.format(targets=[str(results)]) + stubs)
    (submission / "notebooks").mkdir()
    code = grade.main(["--format", "gradescope", "--submission-dir", str(submission), "--results", str(results)])
    assert code == 0 and capsys.readouterr().out == ""
    written = json.loads(results.read_text())
    check_gradescope(written, 0)
    assert "FORGED" not in results.read_text()


def test_gradescope_with_nothing_uploaded_still_writes_a_zero(tmp_path, capsys):
    (tmp_path / "submission").mkdir()
    results = tmp_path / "results.json"
    code = grade.main(["--format", "gradescope", "--submission-dir", str(tmp_path / "submission"),
                       "--results", str(results)])
    written = json.loads(results.read_text())
    assert code == 0
    check_gradescope(written, 0)
    assert "no agent.py found" in written["output"]


def test_gradescope_results_that_are_not_json_once_written_fail_the_grading(tmp_path, capsys, monkeypatch):
    """run_autograder takes exit status 0 to mean results.json holds JSON: the grader reads it back to make sure."""
    (tmp_path / "submission").mkdir()
    results = tmp_path / "results.json"

    def cut_short(path, text):
        Path(path).write_text(text[: len(text) // 2], encoding="utf-8")  # as a full disk or a bug might

    monkeypatch.setattr(grade, "write_atomically", cut_short)
    code = grade.main(["--format", "gradescope", "--submission-dir", str(tmp_path / "submission"),
                       "--results", str(results)])
    assert code == 2
    assert f"spec2code grade: {results} was not JSON once written" in capsys.readouterr().err


# --- the command line ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_order_is_by_name_whatever_the_arguments_and_jobs(tmp_path, capsys):
    for name in ("zed", "Amy", "bob"):
        (tmp_path / name).mkdir()
        shutil.copy(STUBS, tmp_path / name / "agent.py")
    args = [str(tmp_path / n / "agent.py") for n in ("zed", "bob", "Amy")]
    assert grade.main([*args, "--jobs", "3"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["submission"] for row in rows] == ["Amy", "bob", "zed"]


def test_the_spec2code_command_dispatches_to_grade(capsys):
    from lab import commands as cli

    assert cli.main(["grade", str(STUBS), "--format", "json"]) == 0
    (stubs,) = json.loads(capsys.readouterr().out)
    assert stubs["submission"] == "lab-copy"  # an agent.py is named by its folder (lab/'s parent, for the lab's own)
    assert stubs["score"] == 0


@pytest.mark.parametrize(
    "args, says",
    [
        (["{tmp}/nowhere"], "there is no file or folder {tmp}/nowhere"),
        (["{tmp}/empty_dir"], "no submissions found in {tmp}/empty_dir"),
        ([], "no SUBMISSION given"),
        (["{stubs}", "--format", "xlsx"], "invalid choice: 'xlsx'"),
        (["{stubs}", "--jobs", "0"], "'0' must be more than 0"),
        (["{stubs}", "--points", "1,2"], "give one number for every step"),
        (["{stubs}", "--out", "{tmp}"], "is a folder: give --out a file name"),
        (["{stubs}", "{stubs}", "--format", "gradescope"], "grades one submission at a time"),
        (["--format", "gradescope", "--submission-dir", "{tmp}/nowhere"], "there is no {tmp}/nowhere"),
    ],
)
def test_usage_errors_exit_2_with_one_line(tmp_path, capsys, args, says):
    (tmp_path / "empty_dir").mkdir()
    fill = {"tmp": str(tmp_path), "stubs": str(STUBS)}
    assert exit_status(grade.main, [a.format(**fill) for a in args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("spec2code grade: ") and says.format(**fill) in err


def test_names_that_clash_keep_their_paths(tmp_path, capsys):
    for group in ("a", "b"):
        (tmp_path / group / "alice").mkdir(parents=True)
        shutil.copy(STUBS, tmp_path / group / "alice" / "agent.py")
    args = [str(tmp_path / "a"), str(tmp_path / "b"), str(tmp_path / "a" / "alice"), "--format", "json"]
    assert grade.main(args) == 0
    names = [one["submission"] for one in json.loads(capsys.readouterr().out)]
    assert len(names) == 2 and all(name.endswith("alice/agent.py") for name in names)


@pytest.mark.slow
def test_grade_takes_a_task_and_refuses_where_the_walls_are_weaker_than_required(tmp_path, capsys, monkeypatch):
    from harness.errors import LabError

    assert grade.main([str(REFERENCE_AGENT), "--task", "median", "--format", "json"]) == 0
    (one,) = json.loads(capsys.readouterr().out)
    assert one["score"] == 5 and one["isolation"] in ("namespaces", "user", "process")
    assert exit_status(grade.main, [str(REFERENCE_AGENT), "--task", "nope"]) == 2
    assert "There is no task 'nope'" in capsys.readouterr().err
    monkeypatch.setenv("SPEC2CODE_ISOLATION", "process")
    with pytest.raises(LabError, match="refusing to grade: the isolation here is 'process'"):
        grade.main([str(REFERENCE_AGENT), "--require-isolation", "namespaces"])


def test_at_the_user_level_a_reference_any_user_can_read_stops_grading_with_one_line(tmp_path, capsys, monkeypatch):
    from checks.runner import reach
    from lab.commands import main

    if not reach.reference_files():
        pytest.skip("the lab is installed without solutions/")
    monkeypatch.setattr("checks.isolation.require", lambda level: {"level": "user", "sandbox": "user",
                                                                   "agent": "user", "lacks": {}})
    monkeypatch.setattr(reach, "readable_by_sandbox_user", lambda paths: paths[:1])  # as if every user could
    graded = []
    monkeypatch.setattr("checks.grading.grade_submission", lambda *args, **kwargs: graded.append(args))
    out = tmp_path / "grades.csv"
    assert main(["grade", str(REFERENCE_AGENT), "--out", str(out)]) == 2
    solutions = REFERENCE_AGENT.resolve().parent
    assert capsys.readouterr().err == (
        f"spec2code grade: refusing to grade: every user can read {solutions / 'agent.py'}, so a submission could "
        f"copy the reference: make its folder private (chmod go-rwx {REFERENCE_AGENT.parent}) or grade where "
        "namespaces are available\n")
    assert graded == [] and not out.exists()  # nothing graded, nothing written


# --- LMS exports in, LMS import files out --------------------------------------------------------------------

# extract_code as line_scanner.py writes it: a student's own step 1
SCANNER = (AGENTS_CORRECT / "line_scanner.py").read_text()
STEP1_DONE = SCANNER[SCANNER.index("def extract_code"):SCANNER.index("def write_tests")]


def lms_exports(base: Path) -> list[Path]:
    """A Canvas, a Moodle 4.x and a Blackboard export of the same small class: jane and her copier (the same agent,
    with step 1 written), and one student each with the stubs untouched."""
    stubs = STUBS.read_text()
    own = stubs.replace(stubs[stubs.index("def extract_code"):stubs.index("def write_tests")], STEP1_DONE)
    canvas, moodle, blackboard = base / "canvas", base / "moodle", base / "blackboard"
    files = {
        canvas / "doejane_12345_67890_agent.py": own,
        canvas / "roejohn_LATE_23456_67891_agent.py": own,  # a copy, handed in late
        canvas / "smithbob_34567_67892_agent.py": stubs,
        moodle / "Ann Lee_345678_assignsubmission_file" / "agent.py": stubs,
        moodle / "Ann Lee_345678_assignsubmission_onlinetext" / "onlinetext.html": "<p>done</p>",
        moodle / "Bob Roe_456789_assignsubmission_onlinetext" / "onlinetext.html": "<p>no file</p>",
        blackboard / "Lab_1_mary_ann_attempt_2026-11-30-10-00-00_agent.py": stubs,
        blackboard / "Lab_1_mary_ann_attempt_2026-11-30-10-00-00.txt":
            "Name: Mary Ann Lee (mary_ann)\nAssignment: Lab_1\nDate Submitted: Monday, November 30, 2026 10:00:00 AM "
            "EST\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return [canvas, moodle, blackboard]


@pytest.fixture(scope="module")
def lms_class(tmp_path_factory):
    """The three exports graded once (stubs and step 1 only: fast), as JSON, with the summary."""
    base = tmp_path_factory.mktemp("lms")
    out = base / "grades.json"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = grade.main([*map(str, lms_exports(base)), "--format", "json", "--out", str(out), "--jobs", "3"])
    assert code == 0
    return json.loads(out.read_text(encoding="utf-8")), err.getvalue()


@pytest.mark.slow
def test_each_lms_export_gives_one_row_per_student_with_its_id_and_late_flag(lms_class):
    reports, err = lms_class
    rows = {one["submission"]: (one["student_id"], one["late"], one["submitted"]) for one in reports}
    assert rows == {
        "doejane": ("12345", False, ""), "roejohn": ("23456", True, ""), "smithbob": ("34567", False, ""),  # Canvas
        "Ann Lee": ("345678", None, ""), "Bob Roe": ("456789", None, ""),  # Moodle 4.x: no late flag, no time
        "Mary Ann Lee": ("mary_ann", None, "Monday, November 30, 2026 10:00:00 AM EST"),  # Blackboard's receipt
    }
    assert "read as an export of canvas, moodle, blackboard" in err
    assert [one["platform"] for one in reports] == ["moodle", "moodle", "canvas", "blackboard", "canvas", "canvas"]
    table = list(csv.DictReader(io.StringIO(grade_formats.to_csv(reports))))
    assert {row["submission"]: row["late"] for row in table}["roejohn"] == "yes"


@pytest.mark.slow
def test_copies_are_flagged_beside_the_score_never_in_it(lms_class):
    reports, err = lms_class
    graded = by_name(reports)
    assert graded["doejane"]["similar"] == [{"submission": "roejohn", "similarity": 1.0}]
    assert graded["roejohn"]["similar"] == [{"submission": "doejane", "similarity": 1.0}]
    assert graded["doejane"]["score"] == graded["roejohn"]["score"] == 1  # step 1 passes: the copy scores the same
    assert all(one["similar"] == [] for name, one in graded.items() if name not in ("doejane", "roejohn"))
    assert "alike, for a person to look at (no score changed): doejane and roejohn 100%" in err
    table = {row["submission"]: row for row in csv.DictReader(io.StringIO(grade_formats.to_csv(reports)))}
    assert table["doejane"]["similar"] == "roejohn (100%)" and table["smithbob"]["similar"] == ""


@pytest.mark.slow
def test_grade_writes_each_lms_import_file_from_the_ids_its_export_gave(tmp_path, lms_class, capsys):
    """The import files themselves are checked against each LMS's column rules in tests/checks/report/test_lms.py;
    here, that the command writes them, with the ids read from the exports."""
    reports, _ = lms_class
    canvas = tmp_path / "canvas.csv"
    assert grade.main([str(STUBS), "--format", "canvas", "--assignment", "Lab 1 (4321)", "--out", str(canvas)]) == 0
    assert canvas.read_text().splitlines() == ["Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (4321)"]
    assert "left out of the import file, as no export of that LMS gave their id: lab-copy" in capsys.readouterr().err
    from checks.report import render

    lines = {lms: render(reports, lms).splitlines() for lms in ("canvas", "moodle", "blackboard")}
    assert lines["canvas"][0] == "Student,ID,SIS User ID,SIS Login ID,Section,Spec to Code"
    assert lines["canvas"][1:] == ["doejane,12345,,,,1", "roejohn,23456,,,,1", "smithbob,34567,,,,0"]
    assert lines["moodle"][0] == "Identifier,Full name,Grade,Maximum Grade,Last modified (grade)"
    assert [line.rsplit(",", 1)[0] for line in lines["moodle"][1:]] == [
        "Participant 345678,Ann Lee,0,5", "Participant 456789,Bob Roe,0,5"]  # Moodle's rows only
    assert lines["blackboard"] == ['"Username","Spec to Code"', '"mary_ann","0"']
    print("\n".join(f"{lms}: {text[0]}" for lms, text in lines.items()))


@pytest.mark.slow
def test_without_copydetect_grading_goes_on_and_says_what_to_install(tmp_path, capsys, monkeypatch):
    from checks.submissions import beside

    monkeypatch.setattr(beside, "COMPARING", "import sys; sys.modules['copydetect'] = None\n" + beside.COMPARING)
    for name in ("amy", "bob"):
        (tmp_path / name).mkdir()
        shutil.copy(STUBS, tmp_path / name / "agent.py")
    assert grade.main([str(tmp_path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert [one["score"] for one in json.loads(out)] == [0, 0]
    assert "spec2code grade: submissions not compared for similarity: copydetect is not installed " \
           "(pip install copydetect)" in err


@pytest.mark.slow
def test_the_grader_compares_a_class_without_importing_copydetect_itself(tmp_path):
    """The comparison runs beside the grading, in a process of its own: the grader never holds copydetect and the
    plotting it imports (37 MB, which each process the grader forks copied), and the pairs still reach the report."""
    import subprocess
    import sys

    for name in ("amy", "bob"):
        (tmp_path / name).mkdir()
        shutil.copy(REFERENCE_AGENT, tmp_path / name / "agent.py")
    script = ("import json, sys\n"
              "from lab.commands import grade\n"
              f"assert grade.main([{str(tmp_path)!r}, '--format', 'json', '--out', {str(tmp_path / 'g.json')!r}]) == 0\n"
              "print(json.dumps(sorted(m for m in ('copydetect', 'matplotlib', 'pygments') if m in sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []
    graded = {one["submission"]: one for one in json.loads((tmp_path / "g.json").read_text())}
    assert graded["amy"]["similar"] == [{"submission": "bob", "similarity": 1.0}]
    assert graded["bob"]["similar"] == [{"submission": "amy", "similarity": 1.0}]
