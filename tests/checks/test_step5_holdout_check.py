"""checks/step5_holdout_check: a run of the lab's own solution that the sandbox fails is never the student's fault."""

import pytest

import checks
import harness
from checks import scripted
from tests.paths import REFERENCE_AGENT as REFERENCE

pytestmark = pytest.mark.slow  # each grades step 5 of the reference: over half a second

CRASHED = "crash: the test process stopped before reporting all results"


class CrashesOnce:
    """A memo of runs whose first held-out run of each solution ends in a crash, as a sandbox under load might."""

    def __init__(self, memo):
        self._memo, self.crashed = memo, set()

    def run(self, solution, tests, timeout=None):
        result = self._memo.run(solution, tests, timeout)
        if tests == harness.HOLDOUT_TESTS and solution not in self.crashed:
            self.crashed.add(solution)
            return dict(result, failed=sorted(set(result["failed"]) | {"test_century_years"}), error=CRASHED)
        return result


def step5(report: dict) -> dict:
    return next(s for s in report["steps"] if s["step"] == 5)


def test_a_crash_in_the_run_served_to_the_agent_is_run_again_not_blamed_on_it(monkeypatch):
    crashes = CrashesOnce(scripted._Runs())
    monkeypatch.setattr(scripted, "_AGENTS", crashes)
    found = step5(checks.grade_agent(REFERENCE, steps=[5]))
    assert found["status"] == checks.PASSED, [c["message"] for c in found["checks"]]
    assert len(crashes.crashed) == 3  # the reference, the century bug, the fitted lookup: each crashed once


def test_a_crash_in_the_graders_own_run_is_run_again_not_blamed_on_the_agent(monkeypatch):
    crashes = CrashesOnce(scripted._Runs())
    monkeypatch.setattr(scripted, "_GRADER", crashes)
    found = step5(checks.grade_agent(REFERENCE, steps=[5]))
    assert found["status"] == checks.PASSED, [c["message"] for c in found["checks"]]
    assert len(crashes.crashed) == 3


def test_a_grader_run_that_keeps_crashing_is_the_labs_error(monkeypatch):
    class AlwaysCrashes(CrashesOnce):
        def run(self, solution, tests, timeout=None):
            self.crashed.clear()
            return super().run(solution, tests, timeout)

    monkeypatch.setattr(scripted, "_GRADER", AlwaysCrashes(scripted._Runs()))
    found = step5(checks.grade_agent(REFERENCE, steps=[5]))
    lab_made = [c for c in found["checks"] if c["status"] == checks.FAILED]
    assert [c["name"] for c in lab_made] == ["finds_nothing_wrong_with_a_correct_solution",
                                             "names_what_the_century_bug_fails",
                                             "catches_a_solution_fitted_to_the_visible_tests"]
    for failed in lab_made:
        assert "ended in an error twice (crash" in failed["message"]
        assert "a problem in the lab, not in your code" in failed["hint"]
