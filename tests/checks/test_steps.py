"""checks/steps: the five steps, and the lab's one rule for "not started"."""

import pytest

from checks.steps import STEPS, first_not_started, is_stub, step, try_time_limit
from lab.stubs import render
from tests.paths import REFERENCE_AGENT


def test_a_step_is_found_by_number_or_function_name():
    assert step(4) is step("4") is step("solve") is STEPS[3]
    with pytest.raises(LookupError, match="There is no step '7'"):
        step("7")


@pytest.mark.parametrize(
    "body, stub",
    [
        ('    """Doc."""\n    raise NotImplementedError("step 1")\n', True),
        ("    raise NotImplementedError\n", True),
        ('    """Doc."""\n    return reply.strip()\n', False),
        ("    x = 1\n    raise NotImplementedError\n", False),  # started: more than the stub's one line
        ("    raise ValueError('no')\n", False),
    ],
)
def test_a_stub_is_a_function_whose_only_statement_raises_not_implemented(body, stub):
    assert is_stub(f"def extract_code(reply):\n{body}", "extract_code") is stub


def test_a_function_defined_another_way_or_missing_is_not_a_stub():
    assert is_stub("from solutions.agent import extract_code\n", "extract_code") is False
    assert is_stub("def broken(:\n", "extract_code") is False  # the loader reports the syntax error


def test_the_first_step_not_started_in_the_shipped_files():
    assert first_not_started(render()) is STEPS[0]
    assert first_not_started(REFERENCE_AGENT.read_text()) is None


def test_a_try_gives_a_call_as_long_as_its_check_does():
    assert try_time_limit("extract_code") == 3.0 and try_time_limit("solve") == 10.0  # as long as the check waits
    assert try_time_limit("a_helper_of_the_learners") == 3.0
