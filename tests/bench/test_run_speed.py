"""bench/run_speed.py times only green runs, and gives with each kind of run what it costs the whole machine."""

import pytest

from bench import run_speed


def test_a_run_of_nothing_is_green_and_costs_the_machine_cpu():
    found = run_speed.one_run(3, run_speed.EMPTY_TEST, 0.0, run_speed.EMPTY_SOLUTION)
    assert found["total"] > 0 and found["cpu"] > 0
    assert set(found["stages"]) == {*run_speed.STAGES, "other"}


def test_a_run_that_is_not_green_stops_the_bench():
    with pytest.raises(AssertionError):
        run_speed.one_run(1, "def test_nothing():\n    assert x == 2\n", 0.0, run_speed.EMPTY_SOLUTION)


def test_the_one_run_report_gives_the_cpu_bound_a_run_of_nothing_and_the_cost_of_a_call(monkeypatch, capsys):
    monkeypatch.setattr(run_speed.floor, "measure", lambda: {"steps": {"fork + exit": 0.001}, "floor": 0.01,
                                                             "missing": {}})
    monkeypatch.setattr(run_speed.os, "cpu_count", lambda: 2)
    run_speed.print_one_run(2, run_speed.visible_tests())
    lines = capsys.readouterr().out.splitlines()
    back_to_back, spaced, nothing, calls = lines[1:5]
    assert back_to_back.startswith("one run, back to back") and "on 2 cores runs one after another" in back_to_back
    assert spaced.startswith("one run, 0.3 s apart") and "CPU" not in spaced
    assert nothing.startswith("a run of nothing") and "of the machine's CPU" in nothing
    assert calls.startswith("a run of 1,000 calls across the wall") and " us a call" in calls
