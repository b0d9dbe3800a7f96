"""checks/step3_write_solution.py: what a student reads for a mistake in write_solution."""

import pytest

import checks
from tests.helpers import contained_corpus

AGENTS = contained_corpus()  # the fixture agents, as the grader's child can run them


def _checks(agent: str) -> dict:
    step = checks.grade_agent(AGENTS / "wrong" / agent, steps=[3])["steps"][0]
    return {c["name"]: c for c in step["checks"]}


@pytest.mark.slow
def test_feedback_never_in_the_prompt_is_one_fault_not_two():
    graded = _checks("ignores_feedback.py")
    assert graded["puts_the_feedback_in_the_prompt"]["hint"] == (
        "when `feedback` is not empty, add it to the prompt so the model can fix its last attempt")
    left_out = graded["leaves_the_feedback_out_when_there_is_none"]
    assert left_out["status"] == "failed" and left_out["follows"] == "puts_the_feedback_in_the_prompt"
    assert left_out["message"] == (
        "follows from: puts the feedback in the prompt, with the spec, when there is some (fix that first)")
    assert left_out["hint"] == ""


@pytest.mark.slow
def test_a_feedback_section_always_there_keeps_its_own_words():
    left_out = _checks("always_a_feedback_section.py")["leaves_the_feedback_out_when_there_is_none"]
    assert "follows" not in left_out and "add them only `if feedback:`" in left_out["hint"]
