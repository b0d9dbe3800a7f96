"""checks/submissions/archives.py: a zip is unpacked inside its folder only, with no links, and within limits."""

import os
import stat
import zipfile

import pytest

from checks.submissions import archives, survey
from checks.submissions.archives import ArchiveError, Scratch, unpack


def zip_of(path, entries: dict, links=()):
    """A zip at `path` holding `entries` (name -> text) and symbolic links (name, target)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
        for name, target in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return path


def test_entries_that_climb_out_or_are_links_are_left_out(tmp_path):
    archive = zip_of(tmp_path / "hostile.zip", {
        "lab/agent.py": "x = 1\n",
        "../escaped.py": "x = 2\n",
        "/tmp/absolute.py": "x = 3\n",
        "a/../../climb.py": "x = 4\n",
        "C:/windows.py": "x = 5\n",
    }, links=[("lab/link.py", "/etc/passwd")])
    into = tmp_path / "out"
    left_out = unpack(archive, into)
    assert sorted(p.relative_to(into).as_posix() for p in into.rglob("*") if p.is_file()) == ["lab/agent.py"]
    assert not (tmp_path / "escaped.py").exists() and not (tmp_path / "climb.py").exists()
    assert len(left_out) == 5 and "lab/link.py (a link)" in left_out
    assert not any(p.is_symlink() for p in into.rglob("*"))


def test_a_zip_bomb_stops_at_the_limit_counted_on_what_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "MAX_BYTES", 1 << 20)
    archive = zip_of(tmp_path / "bomb.zip", {f"part{n}.txt": "0" * (600 << 10) for n in range(4)})
    assert archive.stat().st_size < 50 << 10  # tiny on disk
    with pytest.raises(ArchiveError, match="unpacks to more than 1 MB"):
        unpack(archive, tmp_path / "out")


def test_a_file_over_the_size_limit_is_left_out_and_the_rest_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "MAX_FILE_BYTES", 1000)
    archive = zip_of(tmp_path / "big.zip", {"agent.py": "x = 1\n", "data.bin": "0" * 5000})
    left_out = unpack(archive, tmp_path / "out")
    assert (tmp_path / "out" / "agent.py").is_file() and not (tmp_path / "out" / "data.bin").exists()
    assert left_out == ["data.bin (over 0 MB)"]


def test_folders_no_submission_needs_are_not_unpacked(tmp_path):
    archive = zip_of(tmp_path / "repo.zip", {"repo/lab/agent.py": "x = 1\n", "repo/.git/objects/ab": "blob",
                                              "repo/.venv/lib/big.py": "x = 2\n"})
    unpack(archive, tmp_path / "out")
    assert [p.name for p in (tmp_path / "out" / "repo").iterdir()] == ["lab"]


def test_not_a_zip_is_an_archive_error(tmp_path):
    fake = tmp_path / "agent.zip"
    fake.write_text("def extract_code(reply): ...\n")
    with pytest.raises(ArchiveError, match="agent.zip is not a zip file that can be read"):
        unpack(fake, tmp_path / "out")


def test_a_class_zip_given_to_grade_is_read_as_the_class_it_holds(tmp_path):
    archive = zip_of(tmp_path / "submissions.zip", {
        "doejane_12345_67890_agent.py": "def extract_code(reply):\n    return reply\n",
        "smithbob_22222_33333_lab.zip": "",  # replaced below by a zip of the student's repo
    })
    inner = zip_of(tmp_path / "inner.zip", {"spec2code-lab/lab/agent.py": "x = 1\n"})
    with zipfile.ZipFile(archive, "w") as outer:
        outer.writestr("doejane_12345_67890_agent.py", "def extract_code(reply):\n    return reply\n")
        outer.write(inner, "smithbob_22222_33333_lab.zip")
    with Scratch() as scratch:
        found = survey([str(archive)], scratch=scratch)
        rows = {s.name: s for s in found.submissions}
        assert found.layouts == ["canvas"] and list(rows) == ["doejane", "smithbob"]
        assert rows["smithbob"].path.name == "agent.py" and rows["smithbob"].path.parent.name == "lab"
        assert rows["smithbob"].path.is_file()
    assert not rows["smithbob"].path.exists()  # the scratch folder is gone once grading is done


def test_a_students_zip_of_the_repo_given_to_grade_is_named_by_the_zip(tmp_path):
    archive = zip_of(tmp_path / "alice.zip", {"spec2code-lab-main/lab/agent.py": "x = 1\n",
                                              "spec2code-lab-main/pyproject.toml": "",
                                              "spec2code-lab-main/solutions/agent.py": "x = 2\n"})
    with Scratch() as scratch:
        (one,) = survey([str(archive)], scratch=scratch).submissions
        assert one.name == "alice" and one.path.parent.name == "lab" and one.path.read_text() == "x = 1\n"


def test_zips_are_unpacked_where_only_the_grader_may_read_them(tmp_path):
    """At the user level a submission graded beside another could read what every user can: the class it came in,
    unpacked, is the grader's alone (so the check before grading finds no classmate's file open)."""
    archive = zip_of(tmp_path / "class.zip", {"alice/agent.py": "x = 1\n", "bob/agent.py": "x = 2\n"})
    with Scratch() as scratch:
        found = survey([str(archive)], scratch=scratch)
        base = scratch.folder().parent
        info = base.stat()
        assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (os.geteuid(), 0o700)
        assert all(base in s.path.parents for s in found.submissions) and len(found.submissions) == 2
