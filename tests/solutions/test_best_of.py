"""best_of: where picking by the pass matrix beats one attempt, and where weak tests fool it."""

import pytest

import harness
from harness.tasks import LEAP_YEAR, TASKS
from solutions.best_of import best_of


@pytest.mark.slow
def test_it_beats_one_attempt_when_one_sample_is_right():
    out = best_of(harness.SPEC, 4)
    assert out["chosen"] == 1 and out["code"] == LEAP_YEAR.reference.strip()
    assert out["candidates"][0] == LEAP_YEAR.script.first_attempt.strip()  # what one attempt would give
    assert out["scores"][1] == max(out["scores"]) and len(out["matrix"]["passed"]) == 4
    held_out = harness.run(out["code"], LEAP_YEAR.holdout_tests)
    assert held_out["failed"] == []


@pytest.mark.slow
def test_it_is_fooled_when_every_candidate_shares_a_bug_the_tests_miss():
    task = TASKS["parse_duration"]
    shared = task.buggy["accepts_repeated_units"]  # the model's tests never give a unit twice

    def ask(prompt, sample=0):
        if "test" in prompt.split("Specification")[0]:
            return "```python\n" + task.script.tests + "```"
        return "```python\n" + (shared if sample % 2 == 0 else task.buggy["hours_times_60"]) + "```"

    out = best_of(task.spec, 4, ask=ask)
    assert out["code"] == shared.strip()
    assert harness.run(out["code"], task.script.tests)["failed"] == []  # green on the visible tests
    assert harness.run(out["code"], task.holdout_tests)["failed"] == ["test_rejects_a_unit_given_twice"]
