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
