"""lab/gap.py: an agent's solve on each task, measured by the lab's own runs on the visible and held-out tests."""

import pytest

from harness.tasks import TASKS
from lab import gap
from lab.commands.try_agent import REFERENCE_AGENT


@pytest.mark.slow
def test_the_rows_can_be_measured_without_the_bug_score():
    [row] = gap.measure(REFERENCE_AGENT, [TASKS["median"]], backend="gaming", bug_score=False)
    assert row.visible == (10, 10) and row.held_out == (7, 13) and row.bugs == (0, 0)
    assert round(row.gap, 2) == 0.46 and row.rounds == 2 and row.held_out_failing


@pytest.mark.slow  # builds the bank, 0.4 s
def test_a_slice_of_humaneval_is_chosen_by_its_numbers():
    from harness import tasks
    from harness.errors import UsageError

    assert [t.name for t in gap.select("humaneval", "HumanEval/0-2, humaneval/32")] == [
        "HumanEval/0", "HumanEval/1", "HumanEval/2", "HumanEval/32"]
    assert len(gap.select("humaneval")) == 164 and gap.select() == list(TASKS.values())
    with pytest.raises(UsageError, match="from the lower number to the higher"):
        gap.select("humaneval", "HumanEval/19-0")
    with pytest.raises(tasks.UnknownTask):
        gap.select("humaneval", "HumanEval/0-164")


def test_the_closing_note_says_whether_the_gap_grows_with_difficulty():
    from harness.tasks import bank

    humaneval = bank("humaneval")
    easy, hard = humaneval["HumanEval/2"], humaneval["HumanEval/129"]  # difficulty 1 and 5
    assert (easy.difficulty, hard.difficulty) == (1, 5)

    def row(task, held):
        return gap.Row(task, (4, 4), (held, 4), 2, (0, 0))

    growing = gap.closing_note([row(easy, 4), row(easy, 4), row(hard, 1)])
    assert "1: 0% (2 tasks), 5: 75% (1 task)" in growing and "grows with difficulty (correlation 1.00)" in growing
    assert "does not grow" in gap.closing_note([row(easy, 1), row(hard, 4)])
    assert "bugs the agent's tests miss" not in growing  # no bug score measured
    scored = [gap.Row(easy, (4, 4), (4, 4), 2, (3, 3)), gap.Row(hard, (4, 4), (1, 4), 2, (1, 3))]
    assert "Against the planted bugs the agent's tests miss, the correlation is 1.00." in gap.closing_note(scored)
    assert "No gap" in gap.closing_note([row(easy, 4), row(hard, 4)])
    assert gap.by_difficulty([row(easy, 4), row(hard, 2)]) == {1: (1, 1.0, 1.0), 5: (1, 1.0, 0.5)}


@pytest.mark.slow  # matplotlib
def test_the_chart_of_many_tasks_shows_them_by_difficulty():
    from harness.tasks import bank

    humaneval = bank("humaneval")
    rows = [gap.Row(humaneval[f"HumanEval/{n}"], (4, 4), (2, 4), 2, (0, 0)) for n in (2, 129) for _ in range(7)]
    fig = gap.figure(rows, "offline model")
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["1\n(7 tasks)", "5\n(7 tasks)"]
