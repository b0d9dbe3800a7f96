"""The step 4 and 5 demonstrations: a solve run round by round, and visible against held-out tests."""




import pytest

from lab import jupyter as notebook
from lab.jupyter import contrast_chart, rounds_chart, rounds_table, try_function

PNG = b"\x89PNG\r\n\x1a\n"


def run_result(passed, total, failed=(), error=None):
    return {"passed": passed, "failed": list(failed), "total": total, "error": error, "output": ""}


SOLVED = {
    "code": "def is_leap_year(year): ...",
    "tests": "def test_x(): ...",
    "passed": True,
    "iters": 2,
    "history": [
        {"code": "v1", "result": run_result(3, 4, ["test_centuries"])},
        {"code": "v2", "result": run_result(4, 4)},
    ],
}


def test_a_solve_run_is_a_round_by_round_table():
    table = rounds_table(SOLVED)
    assert repr(table).splitlines()[0] == "solve() passed after 2 round(s)"
    assert table.rows == [[1, "3 of 4", "test_centuries", "-"], [2, "4 of 4", "-", "-"]]
    assert "<table" in table._repr_html_()


def test_the_round_chart_is_a_deterministic_png():
    first, second = rounds_chart(SOLVED), rounds_chart(SOLVED)
    assert first.png.startswith(PNG) and first.png == second.png
    assert repr(first) == "Tests passed per round: round 1: 3/4, round 2: 4/4"


def test_a_try_that_failed_is_shown_in_place_of_the_table(agent):
    tried = try_function("extract_code", "x", agent_path=agent)
    assert "not started" in repr(rounds_table(tried)) and "not started" in repr(rounds_chart(tried))
    assert "not a result of solve()" in repr(rounds_table({"code": "x"}))


@pytest.mark.slow
def test_the_contrast_runs_the_held_out_tests_on_each_result():
    import harness

    honest = dict(SOLVED, code=harness.tasks.LEAP_YEAR.reference)
    buggy = dict(SOLVED, code=harness.tasks.LEAP_YEAR.buggy["forgets_centuries"])
    chart = contrast_chart({"honest": honest, "buggy": buggy})
    assert chart.png.startswith(PNG)
    assert repr(chart).startswith("honest: visible 4/4, held-out 9/9; buggy: visible 4/4, held-out ")
    assert "test_centuries_are_common_years" in repr(notebook.contrast_table({"buggy": buggy}))
