"""checks/scripted: the checks' model answers from its script, within the limits of the runner and the model."""

import pytest

from checks.runner.parent import MAX_ASKS
from checks.scripted import ScriptedAsk
from harness.model.reading import MAX_READ


def test_it_answers_as_many_asks_as_the_runner_allows_then_says_it_loops():
    model = ScriptedAsk(["one", "two"])
    assert [model(str(n)) for n in range(MAX_ASKS)] == ["one"] + ["two"] * (MAX_ASKS - 1)
    with pytest.raises(RuntimeError, match=f"more than {MAX_ASKS} times"):
        model("once more")


def test_a_prompt_longer_than_the_model_reads_is_refused_and_not_kept():
    model = ScriptedAsk(["ok"])
    assert model("x" * MAX_READ) == "ok"
    with pytest.raises(RuntimeError, match=f"at most {MAX_READ}"):
        model("x" * (MAX_READ + 1), via="default")
    assert model.calls[-1] == ("default", "") and model.default == [""]


def test_a_prompt_that_is_not_a_string_is_kept_as_its_type_and_the_start_of_its_value():
    """50 prompts of 16 MB that are lists, say, once stayed whole in the grader (3.3 GB for one check)."""
    from checks import define

    model = ScriptedAsk(["ok"])
    for _ in range(MAX_ASKS):
        model(["spec " * 200_000, {"feedback": "y" * 1_000_000}])
    kept = [prompt for _, prompt in model.calls]
    assert all(len(repr(prompt)) < 2_100 for prompt in kept)
    assert repr(kept[0]).startswith("['spec spec")
    with pytest.raises(define.CheckFailed) as failed:
        define.need_type(kept[-1], str, "ask", "")
    assert failed.value.message.startswith("expected ask to return a str, got ['spec spec")
    assert failed.value.hint == "return a str, not list"
