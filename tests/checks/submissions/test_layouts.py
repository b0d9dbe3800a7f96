"""checks/submissions/layouts.py: a platform's export read as students, one row each, latest attempt only."""

from pathlib import Path

import pytest

from checks.submissions import natural_key, survey

AGENT_SOURCE = "def extract_code(reply):\n    return reply\n"


def make(folder: Path, files: dict) -> Path:
    """Files under `folder`: a name ending in '/' is an empty folder, else a file holding the given text."""
    for name, text in files.items():
        path = folder / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def rows(found) -> dict:
    """name -> (student, id, the graded file's name or None, note) for each submission."""
    return {s.name: (s.student, s.student_id, s.path.name if s.path else None, s.note) for s in found.submissions}


def test_canvas_keeps_the_latest_resubmission_and_names_the_student(tmp_path):
    make(tmp_path, {
        "doejane_12345_67890_agent.py": AGENT_SOURCE,
        "doejane_LATE_12345_67890_agent-1.py": AGENT_SOURCE,  # sent again, after the deadline
        "doejane_12345_67891_README.md": "my notes",
        "smithbob_22222_33333_agent.py": AGENT_SOURCE,
        "roejohn_44444_55555_notes.txt": "I could not finish",
        "index.html": "<html>",  # stray: no one's
    })
    found = survey([str(tmp_path)])
    assert found.layouts == ["canvas"]
    graded = rows(found)
    assert list(graded) == ["doejane", "roejohn", "smithbob"]
    assert graded["doejane"][:3] == ("doejane", "12345", "doejane_LATE_12345_67890_agent-1.py")
    assert "older attempts not graded: doejane_12345_67890_agent.py" in graded["doejane"][3]
    assert graded["smithbob"][:3] == ("smithbob", "22222", "smithbob_22222_33333_agent.py")
    assert graded["roejohn"][2] is None and "roejohn_44444_55555_notes.txt" in graded["roejohn"][3]
    assert found.stray == ["index.html"]
    assert found.skipped == ["doejane: doejane_12345_67890_agent.py"]


def test_moodle_makes_one_row_per_student_and_none_for_online_text(tmp_path):
    make(tmp_path, {
        "Jane Doe_12345_assignsubmission_file_/agent.py": AGENT_SOURCE,
        "Jane Doe_12345_assignsubmission_onlinetext_/onlinetext.html": "<p>done</p>",
        "Bob Roe_23456_assignsubmission_onlinetext_/onlinetext.html": "<p>forgot the file</p>",
        "Ann Lee_34567_assignsubmission_file_agent.py": AGENT_SOURCE,  # Moodle's flat download
    })
    found = survey([str(tmp_path)])
    assert found.layouts == ["moodle"]
    graded = rows(found)
    assert list(graded) == ["Ann Lee", "Bob Roe", "Jane Doe"]  # three students, three rows: no row per folder
    assert graded["Jane Doe"] == ("Jane Doe", "12345", "agent.py", "")
    assert graded["Ann Lee"][1:3] == ("34567", "Ann Lee_34567_assignsubmission_file_agent.py")
    assert graded["Bob Roe"][2] is None and "handed in online text, no file" in graded["Bob Roe"][3]


def test_blackboard_keeps_the_last_attempt_and_lists_a_receipt_without_an_agent(tmp_path):
    receipt = "Name: {name} ({user})\nAssignment: Lab 1\nDate Submitted: Monday\n\nFiles:\n"
    make(tmp_path, {
        "Lab 1_jdoe_attempt_2026-11-29-09-00-00_agent.py": "# first try\n" + AGENT_SOURCE,
        "Lab 1_jdoe_attempt_2026-11-29-09-00-00.txt": receipt.format(name="Jane Doe", user="jdoe"),
        "Lab 1_jdoe_attempt_2026-11-30-10-00-00_agent.py": AGENT_SOURCE,
        "Lab 1_jdoe_attempt_2026-11-30-10-00-00.txt": receipt.format(name="Jane Doe", user="jdoe"),
        "Lab 1_bsmith_attempt_2026-11-30-11-00-00.txt": receipt.format(name="Bob Smith", user="bsmith"),
        "grades.xls": "",  # stray
    })
    found = survey([str(tmp_path)])
    assert found.layouts == ["blackboard"]
    graded = rows(found)
    assert list(graded) == ["Bob Smith", "Jane Doe"]
    assert graded["Jane Doe"][:3] == ("Jane Doe", "jdoe", "Lab 1_jdoe_attempt_2026-11-30-10-00-00_agent.py")
    assert "Lab 1_jdoe_attempt_2026-11-29-09-00-00_agent.py" in graded["Jane Doe"][3]
    assert graded["Bob Smith"][:3] == ("Bob Smith", "bsmith", None)
    assert "handed in a receipt, no file" in graded["Bob Smith"][3]
    assert found.stray == ["grades.xls"]


def test_github_classroom_names_each_repository_by_its_student(tmp_path):
    make(tmp_path, {
        "lab-1-jdoe/lab/agent.py": AGENT_SOURCE,
        "lab-1-jdoe/solutions/agent.py": "# the reference, in the template repository\n",
        "lab-1-jdoe/.git/": "",
        "lab-1-asmith/lab/agent.py": AGENT_SOURCE,
        "lab-1-asmith/.git/": "",
    })
    found = survey([str(tmp_path)])
    assert found.layouts == ["classroom"]
    graded = rows(found)
    assert list(graded) == ["asmith", "jdoe"]
    assert graded["jdoe"] == ("jdoe", "jdoe", "agent.py", "")
    assert next(s for s in found.submissions if s.name == "jdoe").path.parent.name == "lab"


def test_plain_folders_sort_naturally_and_leave_stray_files_aside(tmp_path):
    for name in ("s10", "s2", "S1", "s1b"):
        make(tmp_path, {f"{name}/agent.py": AGENT_SOURCE})
    make(tmp_path, {"s3.py": AGENT_SOURCE, "notes.txt": "", ".DS_Store": ""})
    found = survey([str(tmp_path)])
    assert found.layouts == ["folders"]
    assert [s.name for s in found.submissions] == ["S1", "s1b", "s2", "s3", "s10"]
    assert found.stray == ["notes.txt"]


@pytest.mark.parametrize("names, ordered", [
    (["s10", "s2", "s1"], ["s1", "s2", "s10"]),
    (["lab-10", "Lab-9", "lab-9b"], ["Lab-9", "lab-9b", "lab-10"]),
])
def test_natural_order(names, ordered):
    assert sorted(names, key=natural_key) == ordered


def late_and_time(found) -> dict:
    """name -> (late, submitted) for each submission."""
    return {s.name: (s.late, s.submitted) for s in found.submissions}


def test_canvas_reads_late_from_the_file_name(tmp_path):
    """Canvas's "Download Submissions" names each file login[_LATE]_userid_fileid_name and gives no time."""
    make(tmp_path, {
        "doejane_12345_67890_agent.py": AGENT_SOURCE,
        "doejane_LATE_12345_67899_agent-1.py": AGENT_SOURCE,  # sent again, after the deadline: the one graded
        "smithbob_22222_33333_agent.py": AGENT_SOURCE,
        "leeann_LATE_33333_44444_agent.py": AGENT_SOURCE,
    })
    found = survey([str(tmp_path)])
    assert [(s.name, s.student_id) for s in found.submissions] == [
        ("doejane", "12345"), ("leeann", "33333"), ("smithbob", "22222")]
    assert late_and_time(found) == {"doejane": (True, ""), "leeann": (True, ""), "smithbob": (False, "")}


def test_moodle_4_folders_without_the_trailing_underscore_make_one_row_per_student(tmp_path):
    """Moodle 4.1 and later name each student's folder Jane Doe_123456_assignsubmission_file (3.x adds a "_"); the
    number is the participant id its grading worksheet calls the Identifier. Moodle gives no late flag or time."""
    make(tmp_path, {
        "Jane Doe_123456_assignsubmission_file/agent.py": AGENT_SOURCE,
        "Jane Doe_123456_assignsubmission_onlinetext/onlinetext.html": "<p>done</p>",
        "Bob Roe_234567_assignsubmission_onlinetext/onlinetext.html": "<p>forgot the file</p>",
        "Ann Lee_345678_assignsubmission_file/lab/agent.py": AGENT_SOURCE,
    })
    found = survey([str(tmp_path)])
    assert found.layouts == ["moodle"] and found.stray == []
    graded = rows(found)
    assert list(graded) == ["Ann Lee", "Bob Roe", "Jane Doe"]  # one row per student, not per upload type
    assert graded["Jane Doe"] == ("Jane Doe", "123456", "agent.py", "")
    assert graded["Ann Lee"][:3] == ("Ann Lee", "345678", "agent.py")
    assert graded["Bob Roe"][:3] == ("Bob Roe", "234567", None)
    assert "handed in online text, no file" in graded["Bob Roe"][3]
    assert set(late_and_time(found).values()) == {(None, "")}


def test_moodle_3_folders_keep_reading_as_before(tmp_path):
    make(tmp_path, {
        "Jane Doe_123456_assignsubmission_file_/agent.py": AGENT_SOURCE,
        "Jane Doe_123456_assignsubmission_onlinetext_/onlinetext.html": "<p>done</p>",
        "Bob Roe_234567_assignsubmission_onlinetext_/onlinetext.html": "<p>no file</p>",
    })
    graded = rows(survey([str(tmp_path)]))
    assert {name: row[:3] for name, row in graded.items()} == {
        "Bob Roe": ("Bob Roe", "234567", None), "Jane Doe": ("Jane Doe", "123456", "agent.py")}


RECEIPT = ("Name: {name} ({user})\nAssignment: Lab_1\nDate Submitted: {date}\nCurrent Grade: Needs Grading\n\n"
           "Files:\n\tOriginal filename: agent.py\n\tFilename: {file}\n")


def test_blackboard_takes_the_username_and_time_from_the_receipt(tmp_path):
    """Blackboard names files Assignment_username_attempt_STAMP_file; both parts may hold "_", so the receipt's
    'Name: Mary Ann Lee (mary_ann)' says which is the username, and its 'Date Submitted:' when it came."""
    stamp = "Lab_1_{user}_attempt_2026-11-30-{time}"
    files = {}
    for user, name, time, date in [
            ("mary_ann", "Mary Ann Lee", "10-00-00", "Monday, November 30, 2026 10:00:00 AM EST"),
            ("jdoe", "Jane Doe", "23-59-59", "Monday, November 30, 2026 11:59:59 PM EST")]:
        prefix = stamp.format(user=user, time=time)
        files[f"{prefix}_agent.py"] = AGENT_SOURCE
        files[f"{prefix}.txt"] = RECEIPT.format(name=name, user=user, date=date, file=f"{prefix}_agent.py")
    files["Lab_1_li_wei_attempt_2026-12-01-09-30-00_agent.py"] = AGENT_SOURCE  # no receipt: the others name Lab_1
    found = survey([str(make(tmp_path, files))])
    assert found.layouts == ["blackboard"]
    graded = rows(found)
    assert {name: row[:3] for name, row in graded.items()} == {
        "Jane Doe": ("Jane Doe", "jdoe", "Lab_1_jdoe_attempt_2026-11-30-23-59-59_agent.py"),
        "Mary Ann Lee": ("Mary Ann Lee", "mary_ann", "Lab_1_mary_ann_attempt_2026-11-30-10-00-00_agent.py"),
        "li_wei": ("li_wei", "li_wei", "Lab_1_li_wei_attempt_2026-12-01-09-30-00_agent.py"),
    }
    assert late_and_time(found) == {
        "Mary Ann Lee": (None, "Monday, November 30, 2026 10:00:00 AM EST"),
        "Jane Doe": (None, "Monday, November 30, 2026 11:59:59 PM EST"),
        "li_wei": (None, "2026-12-01 09:30:00"),  # no receipt: the time in the file's name
    }
