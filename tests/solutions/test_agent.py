"""The reference agent beyond its step checks: bounded feedback, and a new sample when a prompt repeats."""

import pytest

import harness
from harness.tasks import LEAP_YEAR
from solutions import agent


def test_the_feedback_carries_the_last_3000_characters_of_the_output():
    output = "".join(f"line {i:04d}\n" for i in range(1000))
    feedback = agent._describe_failure({"error": None, "failed": ["test_a"], "output": output})
    assert feedback.startswith("These tests failed: test_a\nDetails:\n")
    assert feedback.endswith(output[-3000:]) and output[:-3000] not in feedback


@pytest.mark.slow
def test_a_prompt_that_repeats_within_one_solve_asks_for_the_next_sample():
    calls = []

    def ask(prompt, sample=0):
        calls.append(sample)
        if "writing tests" in prompt:
            return "```python\n" + LEAP_YEAR.script.tests + "```"
        return "```python\n" + LEAP_YEAR.script.first_attempt + "```"  # the same bug every time

    out = agent.solve(harness.SPEC, ask=ask, max_iters=4)
    assert not out["passed"] and out["iters"] == 4
    assert calls == [0, 0, 0, 1, 2]  # tests, attempt 1, attempt 2, then the same prompt again: samples 1 and 2


@pytest.mark.slow
def test_an_ask_without_samples_still_works_when_no_prompt_repeats():
    replies = iter(["```python\n" + LEAP_YEAR.script.tests + "```",
                    "```python\n" + LEAP_YEAR.script.first_attempt + "```",
                    "```python\n" + LEAP_YEAR.reference + "```"])
    out = agent.solve(harness.SPEC, ask=lambda prompt: next(replies))
    assert out["passed"] and out["iters"] == 2
