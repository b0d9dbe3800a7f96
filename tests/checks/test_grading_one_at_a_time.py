"""checks/grading.py: where a submission could use up what its classmates share (the `user` level's /tmp), a class
is graded one submission at a time, and the grade command says so once; elsewhere several at once, as asked."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from checks import grading
from checks.runner import reach
from checks.submissions import Submission
from harness import levels
from tests.paths import AGENTS

AGENT = AGENTS / "correct" / "line_scanner.py"


def found(level: str, agent: str | None = None) -> dict:
    """What checks.isolation.in_force would say, with the sandbox at `level` and the agent's child at `agent`."""
    return {"level": levels.weaker(level, agent or level), "sandbox": level, "agent": agent or level, "lacks": {},
            "refused": ""}


def test_only_the_user_level_grades_one_at_a_time_and_says_why():
    assert grading.at_once(4, found(levels.NAMESPACES)) == (4, "")
    assert grading.at_once(4, found(levels.PROCESS)) == (4, "")
    for walls in (found(levels.USER), found(levels.NAMESPACES, agent=levels.USER),
                  found(levels.USER, agent=levels.NAMESPACES)):
        jobs, why = grading.at_once(4, walls)
        assert jobs == 1 and why == f"at the user level {levels.TABLE[levels.USER].one_at_a_time}"
        assert "/tmp" in why and "classmate" in why
    assert grading.at_once(1, found(levels.USER)) == (1, "")  # nothing to lower


@pytest.fixture
def graded_at(monkeypatch):
    """Grade a class as if the walls were at a level: {"most": submissions graded at once, "workers": the pool's
    threads, "told": [(jobs, why)]}."""
    seen = {"now": 0, "most": 0, "told": [], "workers": []}
    lock = threading.Lock()
    both = threading.Barrier(2, timeout=10)

    def grade_agent(path, **options):
        with lock:
            seen["now"] += 1
            seen["most"] = max(seen["most"], seen["now"])
        if seen["level"] == levels.NAMESPACES:
            both.wait()  # two at once, or this fails: the pool really grades several together here
        with lock:
            seen["now"] -= 1
        return {"agent": str(path), "steps": [], "passed": 0, "total": 0}

    def grade(level: str, jobs: int = 2, count: int = 4) -> dict:
        seen["level"] = level
        monkeypatch.setattr("checks.isolation.require", lambda required: found(level))
        grading.grade_all([Submission(f"s{n}", AGENT) for n in range(count)], jobs=jobs,
                          lowered=lambda *told: seen["told"].append(told))
        return seen

    def pool(max_workers):
        seen["workers"].append(max_workers)
        return ThreadPoolExecutor(max_workers=max_workers)

    monkeypatch.setattr(grading, "grade_agent", grade_agent)
    monkeypatch.setattr(grading, "ThreadPoolExecutor", pool)
    monkeypatch.setattr(reach, "readable_by_sandbox_user", lambda paths: [])  # as if no user could read them
    return grade


def test_at_the_user_level_a_class_is_graded_one_submission_at_a_time(graded_at):
    seen = graded_at(levels.USER)
    assert seen["workers"] == [1] and seen["most"] == 1
    assert seen["told"] == [grading.at_once(2, found(levels.USER))]


def test_at_the_namespaces_level_a_class_is_graded_several_at_a_time_and_nothing_is_said(graded_at):
    seen = graded_at(levels.NAMESPACES)
    assert seen["workers"] == [2] and seen["most"] == 2 and seen["told"] == []


def test_one_submission_is_never_said_to_be_graded_one_at_a_time(graded_at):
    assert graded_at(levels.USER, count=1)["told"] == []


def test_the_grade_command_says_once_why_it_grades_one_at_a_time(monkeypatch, tmp_path, capsys):
    from lab.commands import grade, main

    monkeypatch.setattr(grade.Beside, "start", lambda self, submissions: lambda: submissions)  # not what is tested
    monkeypatch.setattr("checks.isolation.require", lambda required: found(levels.USER))
    monkeypatch.setattr(reach, "readable_by_sandbox_user", lambda paths: [])
    monkeypatch.setattr(grading, "grade_agent", lambda path, **options: {
        "agent": str(path), "steps": [], "passed": 0, "total": 0})
    for name in ("ann", "ben", "cat"):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "agent.py").write_text(AGENT.read_text())
    assert main(["grade", str(tmp_path / "class"), "--jobs", "3", "--out", str(tmp_path / "grades.csv")]) == 0
    said = capsys.readouterr().err
    lines = [line for line in said.splitlines() if "at a time" in line]
    assert lines[0] == (
        "spec2code grade: grading one submission at a time, not 3: at the user level every submission and its runs "
        "write in the machine's shared folders (/tmp, /var/tmp, /dev/shm, /run/lock), so one that filled them would "
        "fail a classmate graded beside it; what each leaves there is deleted before the next starts. To grade "
        "several at once, grade where the sandbox can make namespaces (see 'The sandbox' in the README).")
    assert len(lines) == 2 and lines[1].startswith("Graded 3 submissions in ") and "(1 at a time)" in lines[1]


def test_the_grade_commands_help_says_where_jobs_is_one(capsys):
    from lab.commands import main

    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    assert "one at a time at the user level" in " ".join(capsys.readouterr().out.split())
