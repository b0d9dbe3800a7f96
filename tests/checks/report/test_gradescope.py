"""checks/report/gradescope.py: results.json as Gradescope's specification has it, text shown as written."""

import json

from checks.report.gradescope import to_gradescope
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
