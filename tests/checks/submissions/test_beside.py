"""checks/submissions/beside.py: a class compared in a process of its own gives the pairs the grader's own comparison
gives; a comparison that fails, or is stopped, says so and changes nothing."""

import pytest

from checks.submissions import beside
from checks.submissions.beside import Beside
from checks.submissions.similarity import with_similar
from tests.checks.submissions.test_similarity import planted_class


@pytest.mark.slow
def test_compared_beside_the_pairs_are_those_compared_here(tmp_path):
    rows, stubs = planted_class(tmp_path)
    with Beside(template=lambda: stubs) as comparison:
        marked = comparison.start(rows)
        found = marked()
    assert comparison.why == ""
    assert [(one.name, one.similar) for one in found] == [
        (one.name, one.similar) for one in with_similar(rows, template=stubs)]
    assert [name for name, _ in {one.name: one.similar for one in found}["ana"]] == ["ben", "cat"]


def test_one_submission_is_compared_with_no_one_and_starts_nothing(tmp_path):
    rows, _ = planted_class(tmp_path)
    asked = []
    comparison = Beside(template=lambda: asked.append("template") or "")
    assert comparison.start(rows[:1])() == rows[:1]
    assert comparison.process is None and asked == [] and comparison.why == ""


def test_a_comparison_that_fails_says_why_and_leaves_the_submissions_as_they_were(tmp_path, monkeypatch):
    rows, stubs = planted_class(tmp_path)
    monkeypatch.setattr(beside, "COMPARING", "import sys; print('the disk is full', file=sys.stderr); sys.exit(3)")
    comparison = Beside(template=lambda: stubs)
    assert comparison.start(rows)() == rows
    assert comparison.why == "the comparing process ended with status 3: the disk is full"


def test_without_copydetect_the_comparison_names_what_to_install(tmp_path, monkeypatch):
    rows, stubs = planted_class(tmp_path)
    monkeypatch.setattr(beside, "COMPARING", "import sys; sys.modules['copydetect'] = None\n" + beside.COMPARING)
    comparison = Beside(template=lambda: stubs)
    assert comparison.start(rows)() == rows
    assert comparison.why == "copydetect is not installed (pip install copydetect)"


def test_a_comparison_still_running_when_grading_ends_is_stopped(tmp_path, monkeypatch):
    rows, stubs = planted_class(tmp_path)
    monkeypatch.setattr(beside, "COMPARING", "import time; time.sleep(60)")
    with Beside(template=lambda: stubs) as comparison:
        comparison.start(rows)
        process = comparison.process
        assert process.poll() is None
    assert process.returncode is not None and comparison.process is None
