"""checks/step2_write_tests: the offline tests must catch every planted bug the offline model's own tests catch."""

import re

import pytest

from checks import scripted
from checks.define import CheckFailed
from checks.scripts import Script
from checks.step2_write_tests import offline_tests_catch_the_known_bugs
from harness.tasks import TASKS

pytestmark = pytest.mark.slow  # each runs a task's planted bugs in the sandbox


class WritesTests:
    """The part of an agent the check uses: write_tests returns `tests`, whatever it is asked."""

    def __init__(self, task: str, tests: str):
        self.script = Script(1, task)
        self.tests = tests

    def call(self, name, *args):
        assert name == "write_tests"
        return self.tests


class CountedRuns(scripted._Runs):
    """The grader's memory of runs, counting the runs of each test source."""

    def __init__(self):
        super().__init__()
        self.by_tests = {}

    def run(self, solution_src, test_src, timeout=None):
        self.by_tests[test_src] = self.by_tests.get(test_src, 0) + 1
        return super().run(solution_src, test_src, timeout)


def without_invalid_input(tests: str) -> str:
    """The tests, less the top-level blocks that test invalid input."""
    return "\n\n".join(block for block in re.split(r"\n\s*\n(?=\S)", tests)
                       if not re.search(r"reject|invalid|raises", block, re.IGNORECASE))


def test_tests_that_miss_bugs_fail_naming_each_bug_they_let_through(monkeypatch):
    monkeypatch.setattr(scripted, "_GRADER", scripted._Runs())
    agent = WritesTests("leap_year", without_invalid_input(TASKS["leap_year"].script.tests))
    with pytest.raises(CheckFailed) as failed:
        offline_tests_catch_the_known_bugs(agent)
    assert "they passed: no_validation, accepts_whole_floats" in failed.value.message
    assert "invalid input" in failed.value.hint


def test_a_bug_the_offline_models_own_tests_miss_is_not_asked_for(monkeypatch):
    """On median, the model's own tests let three planted bugs through: tests that miss them too still pass."""
    runs = CountedRuns()
    monkeypatch.setattr(scripted, "_GRADER", runs)
    task = TASKS["median"]
    agents_tests = task.script.tests.replace("def test_", "def test_again_")  # the same tests, as its own source
    offline_tests_catch_the_known_bugs(WritesTests("median", agents_tests))  # raises if it fails
    # The model's own tests ran on the three bugs the agent's tests let through, and found them uncatchable.
    assert runs.by_tests == {agents_tests: 1 + len(task.buggy), task.script.tests: 3}


def test_the_offline_models_tests_run_only_on_the_bugs_the_agents_tests_missed(monkeypatch):
    runs = CountedRuns()
    monkeypatch.setattr(scripted, "_GRADER", runs)
    task = TASKS["leap_year"]
    agents_tests = task.script.tests.replace("def test_", "def test_again_")  # catches every bug, as its own source
    offline_tests_catch_the_known_bugs(WritesTests("leap_year", agents_tests))
    assert runs.by_tests == {agents_tests: 1 + len(task.buggy)}
