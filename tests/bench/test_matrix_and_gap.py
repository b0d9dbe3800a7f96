"""bench/matrix_and_gap.py times only right answers: a matrix whose reference is red, or whose always-False solution
is green, stops the bench, and so does a gap command that fails."""

import subprocess

import pytest

from bench import matrix_and_gap


@pytest.mark.slow
def test_the_matrix_is_timed_when_its_verdicts_are_right():
    assert matrix_and_gap.matrix_seconds() > 0


@pytest.mark.parametrize("rows", [[[True] * 12, [False] * 12], [[True] * 11 + [False], [False] * 12],
                                  [[True] * 12, [True] * 12]], ids=["right", "reference red", "always False green"])
def test_a_wrong_matrix_stops_the_bench(monkeypatch, rows):
    monkeypatch.setattr(matrix_and_gap.harness, "matrix", lambda s, t: {"passed": rows, "seconds": 1.0})
    if rows == [[True] * 12, [False] * 12]:
        assert matrix_and_gap.matrix_seconds() == 1.0
    else:
        with pytest.raises(SystemExit, match="the matrix is wrong"):
            matrix_and_gap.matrix_seconds()


def test_a_failing_gap_command_stops_the_bench(monkeypatch, tmp_path):
    failed = subprocess.CompletedProcess([], 1, stdout="", stderr="Traceback\nValueError: no such task\n")
    monkeypatch.setattr(matrix_and_gap.subprocess, "run", lambda *a, **k: failed)
    with pytest.raises(SystemExit, match="no such task"):
        matrix_and_gap.gap_seconds(str(tmp_path / "gap.png"))
