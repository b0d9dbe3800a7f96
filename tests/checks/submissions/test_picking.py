"""checks/submissions/picking.py: the agent found as students hand it in, links kept inside their own folder."""

import os
import zipfile

import pytest

from checks.submissions import survey
from tests.checks.submissions.test_layouts import AGENT_SOURCE, make

FIVE = "".join(f"def {name}(*args, **kwargs):\n    return None\n\n" for name in
               ("extract_code", "write_tests", "write_solution", "solve", "holdout_check"))


def graded(folder, **options):
    """(the graded file relative to `folder`, or None; the note) for a submission read as Gradescope does."""
    (one,) = survey([], gradescope=True, submission_dir=folder, **options).submissions
    return (one.path.relative_to(folder).as_posix() if one.path and folder in one.path.parents else
            one.path.name if one.path else None), one.note


@pytest.mark.parametrize("files, expected", [
    ({"agent.py": FIVE}, "agent.py"),
    ({"Agent.py": FIVE}, "Agent.py"),
    ({"agent (1).py": FIVE}, "agent (1).py"),
    ({"my_agent.py": FIVE, "helpers.py": "x = 1\n"}, "my_agent.py"),
    ({"lab3.py": FIVE, "scratch.py": "print('hi')\n"}, "lab3.py"),  # no "agent" in any name: what defines them
    ({"spec2code-lab-main/lab/agent.py": FIVE, "spec2code-lab-main/solutions/agent.py": FIVE,
      "spec2code-lab-main/tests/agents/wrong/keeps_python_tag.py": FIVE},
     "spec2code-lab-main/lab/agent.py"),  # a copy of the repo: the learner's file, never the reference
])
def test_the_agent_is_found_however_it_was_named_or_placed(tmp_path, files, expected):
    make(tmp_path, files)
    assert graded(tmp_path)[0] == expected


def test_agent_py_wins_over_a_numbered_copy_and_the_note_says_so(tmp_path):
    make(tmp_path, {"agent.py": FIVE, "agent (1).py": FIVE})
    assert graded(tmp_path) == ("agent.py", "graded agent.py; also found agent (1).py")


def test_a_zip_is_unpacked_and_read_not_graded_as_python(tmp_path):
    with zipfile.ZipFile(tmp_path / "lab.zip", "w") as archive:
        archive.writestr("spec2code-lab/lab/agent.py", FIVE)
        archive.writestr("spec2code-lab/solutions/agent.py", FIVE)
        archive.writestr("__MACOSX/spec2code-lab/lab/._agent.py", "\x00\x05")
    path, note = graded(tmp_path)
    assert path == "agent.py" and note == ""


def test_when_nothing_is_found_the_note_names_what_was_there(tmp_path):
    make(tmp_path, {"agent.ipynb": "{}", "report.docx": "", "data/input.csv": ""})
    assert graded(tmp_path) == (None, "no agent.py found in the submission; it holds agent.ipynb, data/input.csv, "
                                      "report.docx")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert graded(empty) == (None, "no agent.py found: the submission is empty")


def test_a_link_out_of_the_students_folder_is_never_followed(tmp_path):
    secret = make(tmp_path / "elsewhere", {"agent.py": FIVE})
    student = tmp_path / "class" / "mallory"
    student.mkdir(parents=True)
    os.symlink(secret / "agent.py", student / "agent.py")
    os.symlink(secret, student / "lab")
    path, note = graded(student)
    assert path is None
    assert "agent.py is a link to a file outside the student's folder, so it was not read" in note
    assert "lab is a link to a file outside the student's folder" in note


def test_two_students_sharing_one_file_both_keep_their_rows_with_a_note(tmp_path):
    make(tmp_path, {"alice/agent.py": AGENT_SOURCE, "carol/agent.py": AGENT_SOURCE, "erin/notes.txt": ""})
    os.symlink(tmp_path / "alice", tmp_path / "dave")  # a student's folder linked to another's, inside the class
    os.link(tmp_path / "carol" / "agent.py", tmp_path / "erin" / "agent.py")  # a hard link: one file, two folders
    (tmp_path / "bob").mkdir()
    os.symlink(tmp_path / "alice" / "agent.py", tmp_path / "bob" / "agent.py")  # out of bob's own folder
    rows = {s.name: s for s in survey([str(tmp_path)]).submissions}
    assert list(rows) == ["alice", "bob", "carol", "dave", "erin"]  # no row dropped
    assert rows["alice"].note == "the same file as dave's submission"
    assert rows["dave"].note == "the same file as alice's submission"
    assert rows["carol"].note == "the same file as erin's submission"
    assert rows["erin"].note == "the same file as carol's submission"
    assert rows["bob"].path is None and "link to a file outside the student's folder" in rows["bob"].note


def test_a_student_folder_that_is_a_link_out_of_the_class_is_not_read(tmp_path):
    make(tmp_path / "outside", {"agent.py": FIVE})
    make(tmp_path / "class", {"alice/agent.py": FIVE})
    os.symlink(tmp_path / "outside", tmp_path / "class" / "mallory")
    rows = {s.name: s for s in survey([str(tmp_path / "class")]).submissions}
    assert rows["mallory"].path is None
    assert "a link to a folder outside the class folder" in rows["mallory"].note


def test_a_folder_name_that_is_not_utf8_is_carried_safely(tmp_path):
    name = os.fsdecode(b"caf\xe9-\x1b[2J")
    make(tmp_path, {f"{name}/agent.py": AGENT_SOURCE, "bob/agent.py": AGENT_SOURCE})
    names = [s.name for s in survey([str(tmp_path)]).submissions]
    assert names == ["bob", name]  # kept as it is here; grading makes it safe to show (see test_grading)


def test_the_zips_inside_a_hand_in_share_one_limit(tmp_path, monkeypatch):
    """Each zip within the limit, all of them over it: a 10 kB zip of zips once wrote 2.4 GB."""
    import io

    from checks.submissions import archives

    monkeypatch.setattr(archives, "MAX_BYTES", 1 << 20)
    for n in range(3):
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(f"filler{n}.txt", "0" * (600 << 10))
        with zipfile.ZipFile(tmp_path / f"part{n}.zip", "w") as outer:
            outer.writestr(f"part{n}.zip", inner.getvalue())
    (tmp_path / "agent.py").write_text(FIVE)
    path, note = graded(tmp_path)
    assert path == "agent.py"
    # part0's 600 kB fit; part1's inner zip goes over, and then nothing more is written (part2 fails at once)
    assert note == ("could not unpack part1.zip/part1.zip: part1.zip unpacks, with the zips unpacked before it, to "
                    "more than 1 MB: hand in only agent.py; could not unpack part2.zip: part2.zip unpacks, with the "
                    "zips unpacked before it, to more than 1 MB: hand in only agent.py"), note


def test_a_candidate_too_large_to_grade_is_never_parsed(tmp_path, monkeypatch):
    """`agent_1.py` beside a 24 MB `agent_2.py`: parsing the big one whole once took 2 GB of the grader."""
    from checks.runner.loading import MAX_AGENT_BYTES
    from checks.submissions import picking

    make(tmp_path, {"agent_1.py": FIVE, "agent_2.py": FIVE + "# padding\n" * (MAX_AGENT_BYTES // 10 + 1)})
    read = []
    monkeypatch.setattr(picking, "read_source", lambda path: read.append(path.name) or path.read_text())
    assert graded(tmp_path) == ("agent_1.py", "graded agent_1.py; also found agent_2.py")
    assert read == ["agent_1.py"]
