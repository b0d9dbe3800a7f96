"""The lab's kernel manager keeps the kernels used last: which ones it stops, and that a real server does so."""

import asyncio
from datetime import datetime, timedelta, timezone

import pytest

from lab.jupyter import kernels

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)  # the server's times are UTC-aware


def used(minutes_ago, state="idle"):
    return (T0 - timedelta(minutes=minutes_ago), state)


def test_the_least_recently_used_kernels_are_stopped_until_at_most_the_limit_remain():
    running = {"step1": used(30), "step2": used(20), "start": used(40), "step3": used(0)}
    assert kernels.least_recently_used(running, keep="step3", most=2) == ["start", "step1"]
    assert kernels.least_recently_used(running, keep="step3", most=4) == []


def test_a_busy_kernel_is_never_stopped_even_if_that_leaves_more_than_the_limit():
    running = {"step1": used(30, "busy"), "step2": used(20), "step3": used(0)}
    assert kernels.least_recently_used(running, keep="step3", most=1) == ["step2"]


def test_a_kernel_that_never_said_when_it_was_last_used_counts_as_the_least_recent():
    running = {"silent": (kernels.NEVER, "idle"), "step2": used(20), "step3": used(0)}
    assert kernels.least_recently_used(running, keep="step3", most=2) == ["silent"]


def test_the_kernel_just_started_is_kept_even_when_it_is_the_oldest():
    running = {"new": used(99, "starting"), "other": used(1)}
    assert kernels.least_recently_used(running, keep="new", most=1) == ["other"]


@pytest.mark.slow
def test_a_real_kernel_manager_stops_the_least_recently_used_kernel_when_one_too_many_starts(tmp_path):
    async def start_three():
        manager = kernels.RecentKernels(root_dir=str(tmp_path), most_kernels=2)
        try:
            started = [await manager.start_kernel(kernel_name="python3") for _ in range(3)]
            running = set(manager.list_kernel_ids())
            again = await manager.start_kernel(kernel_id=started[2], kernel_name="python3")  # reused, not started
            return started, running, again, set(manager.list_kernel_ids())
        finally:
            await manager.shutdown_all(now=True)

    (first, second, third), running, again, after = asyncio.run(start_three())
    assert running == {second, third}, "the first kernel, the least recently used, was not the one stopped"
    assert again == third and after == {second, third}
