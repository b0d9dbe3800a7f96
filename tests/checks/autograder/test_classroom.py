"""checks/autograder/classroom.py: the GitHub Classroom workflow, parsed as YAML and read as Classroom's actions
read it (the reporter takes each runner's result from the variable <RUNNER ID in capitals>_RESULTS)."""

import re

import pytest

from checks.steps import STEPS
from lab.commands import autograder

yaml = pytest.importorskip("yaml", reason="install the dev extra: pip install -e '.[dev]'")


def workflow(tmp_path, *options):
    out = tmp_path / ".github" / "workflows" / "classroom.yml"
    assert autograder.main(["classroom", "--out", str(out), *options]) == 0
    return yaml.safe_load(out.read_text(encoding="utf-8"))


def test_one_command_grader_per_step_then_the_reporter(tmp_path, capsys):
    flow = workflow(tmp_path, "--points", "1,2,2,3,2", "--timeout", "4")
    assert "commit" in capsys.readouterr().out
    assert flow["name"] == "Autograding Tests"  # Classroom reads scores only from a workflow of this name
    assert flow["on"] == ["push", "repository_dispatch"]
    assert flow["permissions"] == {"checks": "write", "actions": "read", "contents": "read"}
    (name, job), = flow["jobs"].items()
    assert name == "run-autograding-tests" and job["runs-on"] == "ubuntu-latest"
    steps = job["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[1]["uses"].startswith("actions/setup-python@")
    graders, reporter = steps[2:-1], steps[-1]
    assert len(graders) == len(STEPS)
    for grader, step, points in zip(graders, STEPS, (1, 2, 2, 3, 2)):
        assert grader["uses"] == "classroom-resources/autograding-command-grader@v1"
        assert grader["id"] == f"step{step.number}"
        inputs = grader["with"]
        assert inputs["test-name"] == f"Step {step.number} ({step.function}): {step.title}"
        assert inputs["command"] == f"spec2code check {step.number}"
        assert inputs["max-score"] == points and inputs["timeout"] == 4
        setup = inputs["setup-command"]
        assert '"pytest>=8"' in setup and "--no-deps -e ." in setup  # the lab without notebooks and plotting
    assert reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    runners = reporter["with"]["runners"]
    assert re.fullmatch(r"([a-zA-Z0-9]+,)*[a-zA-Z0-9]+", runners)  # the form the reporter accepts
    assert reporter["env"] == {f"{r.upper()}_RESULTS": f"${{{{steps.{r}.outputs.result}}}}"
                               for r in runners.split(",")}
    assert runners.split(",") == [g["id"] for g in graders]


def test_points_default_to_one_per_step_and_partial_credit_is_refused(tmp_path, capsys):
    flow = workflow(tmp_path)
    graders = flow["jobs"]["run-autograding-tests"]["steps"][2:-1]
    assert [g["with"]["max-score"] for g in graders] == [1] * len(STEPS)
    assert autograder.main(["classroom", "--out", str(tmp_path / "x.yml"), "--partial"]) == 2
    assert "GitHub Classroom scores a step all or nothing" in capsys.readouterr().err


def test_fractional_points_are_refused_as_classroom_would_misread_them(tmp_path, capsys):
    """classroom-resources/autograding-command-grader reads its input with
    `const maxScore = parseInt(core.getInput('max-score') || 0)` (src/main.js): "0.5" is 0, so 0.5,0.5,1,1,2 would
    be announced as 5 points and report 4/4. The lab refuses, in one line, and writes nothing."""
    out = tmp_path / "classroom.yml"
    assert autograder.main(["classroom", "--out", str(out), "--points", "0.5,0.5,1,1,2"]) == 2
    said = capsys.readouterr().err.strip()
    assert said == ("spec2code autograder: GitHub Classroom counts whole points only (0.5 would count as 0): "
                    "give --points as whole numbers, such as 1,1,2,2,4")
    assert not out.exists()
    flow = workflow(tmp_path, "--points", "2.0")  # a whole number written with a point is whole
    assert [g["with"]["max-score"] for g in flow["jobs"]["run-autograding-tests"]["steps"][2:-1]] == [2] * len(STEPS)
