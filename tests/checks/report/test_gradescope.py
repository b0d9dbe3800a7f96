"""checks/report/gradescope.py: results.json as Gradescope's specification has it, text shown as written."""

import json

import pytest

from checks.grading import first_failure
from checks.report import gradescope
from checks.report.gradescope import blocked_reveals, to_gradescope
from tests.checks.report import gradescope_spec
from tests.checks.report.test_formats import scored


def results(one, **options):
    text = to_gradescope([one], **options)
    data = json.loads(text)
    gradescope_spec.validate(data)
    return data


def test_text_formats_keep_angle_brackets_as_written():
    data = results(scored("s", ("failed", "blocked", "blocked", "blocked", "passed")))
    assert data["output_format"] == data["test_output_format"] == data["test_name_format"] == "text"
    assert all(test["output_format"] == test["name_format"] == "text" for test in data["tests"])
    assert "expected 'x', got 'y' <module>" in data["tests"][0]["output"]
    assert data["tests"][1]["output"].startswith("blocked until step 1 (extract_code) passes\n:| ")


def test_visibility_for_the_whole_result_and_per_step():
    data = results(scored("s"), visibility="after_due_date")
    assert data["visibility"] == "after_due_date" and all("visibility" not in t for t in data["tests"])
    steps = ("visible", "visible", "visible", "after_due_date", "hidden")
    data = results(scored("s"), visibility="after_published", step_visibility=steps)
    assert data["visibility"] == "after_published" and [t["visibility"] for t in data["tests"]] == list(steps)
    assert data["stdout_visibility"] == "hidden"  # the grader's log is for the instructor


def test_extra_data_holds_the_check_by_check_verdict_and_the_isolation_is_stated():
    one = scored("s", ("passed", "failed", "passed", "passed", "not started"))
    data = results(one)
    assert [t["extra_data"]["status"] for t in data["tests"]] == ["passed", "failed", "passed", "passed",
                                                                  "not started"]
    assert data["tests"][1]["extra_data"]["checks"] == one["steps"][1]["checks"]
    assert data["extra_data"]["isolation"] == "namespaces" and data["extra_data"]["submission"] == "s"
    assert "Isolation: namespaces (the strongest walls" in data["output"]
    assert data["output"].startswith("3/5 steps passed: 3/5 points.")


def test_a_credited_step_says_so():
    one = scored("s", ("failed", "passed", "passed", "passed", "passed"))
    one["steps"][1]["credited"] = "blocked, and graded as if step 1 (extract_code) had passed (--credit-blocked)"
    data = results(one)
    assert data["tests"][1]["output"].startswith("(blocked, and graded as if step 1 (extract_code) had passed")


def test_what_every_student_sees_says_nothing_of_a_step_not_shown_yet():
    """Gradescope's autograder specification ("Controlling Test Case Visibility"): a test's `visibility` is
    `hidden` (never shown to students), `after_due_date`, `after_published` or `visible`, and "If test cases are
    hidden, students will not be able to see their total score." The top-level `output` has no visibility of its
    own: it is shown at once. So it names only the steps shown now, and no total while any step is not shown."""
    one = scored("s", ("passed", "passed", "passed", "passed", "failed"))
    one["note"] = "two agent files: graded agent.py; " + first_failure(one)
    before = results(one)["output"]
    assert before.startswith("4/5 steps passed: 4/5 points.\ntwo agent files: graded agent.py; step 5 (holdout_check)")
    hidden = results(one, step_visibility=("visible",) * 4 + ("hidden",))
    assert hidden["output"].splitlines()[:3] == [
        "4/4 steps shown now passed: 4/4 of their points.",
        "Step 5 is graded too: its result, and your total, are not shown yet.",
        "two agent files: graded agent.py"]
    assert "holdout_check" not in hidden["output"] and "expected 'x'" not in hidden["output"]
    assert hidden["score"] == 4 and hidden["tests"][4]["visibility"] == "hidden"  # Gradescope still records it all
    later = results(one, step_visibility=("visible", "visible", "visible", "after_due_date", "after_published"))
    assert later["output"].startswith("3/3 steps shown now passed: 3/3 of their points.\nSteps 4 and 5 are graded "
                                      "too: their results, and your total, are not shown yet.\ntwo agent files")
    failing = scored("s", ("failed", "blocked", "blocked", "blocked", "failed"))
    failing["note"] = first_failure(failing)
    shown = results(failing, step_visibility=("visible",) * 4 + ("hidden",))["output"]
    assert "0/4 steps shown now passed: 0/4 of their points." in shown and "step 1 (extract_code): does one" in shown
    nothing = results(one, visibility="after_published")["output"]
    assert nothing.splitlines()[:3] == ["Your submission is graded: its results, and your total, are not shown yet.",
                                        "two agent files: graded agent.py", gradescope.AGAIN]


@pytest.mark.parametrize("steps, first", [
    (("hidden", "visible", "visible", "visible", "visible"), "step 2 would be shown (visible) before step 1 (hidden)"),
    (("visible", "visible", "after_published", "after_due_date", "visible"),
     "step 4 would be shown (after_due_date) before step 3 (after_published)"),
])
def test_a_step_shown_before_a_step_it_needs_is_refused_with_visibilities_that_hide_it(steps, first):
    problem = blocked_reveals(step_visibility=steps)
    assert problem.startswith(first + ", which it needs")
    suggested = tuple(problem.rsplit("--step-visibility ", 1)[1].split(","))
    assert blocked_reveals(step_visibility=suggested) == ""  # the suggestion itself is safe
    assert suggested[4] == steps[4]  # step 5 needs nothing: its choice is kept


def test_visibilities_that_show_a_step_with_or_after_the_steps_it_needs_are_accepted():
    for steps in [None, ("visible",) * 4 + ("hidden",), ("visible", "visible", "visible", "after_due_date", "hidden"),
                  ("after_published",) * 4 + ("visible",), ("visible", "hidden", "visible", "hidden", "hidden")]:
        assert blocked_reveals("after_due_date", steps) == "", steps


def test_a_visible_step_blocked_by_a_hidden_one_never_reaches_a_student(tmp_path, capsys):
    from lab.commands import autograder, grade

    steps = "visible,hidden,visible,visible,visible"
    for run in (lambda: grade.main(["--format", "gradescope", "--step-visibility", steps, "--out",
                                    str(tmp_path / "results.json"), str(tmp_path / "none.py")]),
                lambda: autograder.main(["gradescope", "--step-visibility", steps, "--out", str(tmp_path / "a.zip")])):
        assert run() == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1  # one line, as every usage error
        assert ": --step-visibility: step 4 would be shown (visible) before step 2 (hidden), which it needs" in error
    assert not list(tmp_path.iterdir())  # refused before anything is graded or written
