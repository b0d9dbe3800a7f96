"""The GitHub Classroom workflow, built by the lab: .github/workflows/classroom.yml in the shape Classroom's
autograding uses (the workflow named "Autograding Tests", one job "run-autograding-tests"): one
classroom-resources/autograding-command-grader step per lab step, running `spec2code check N` for the step's
points, then classroom-resources/autograding-grading-reporter collecting their results.

The YAML is written by hand (every value a JSON string, which YAML reads as it is), so building it needs no YAML
library.
"""

from __future__ import annotations

import json

from harness.errors import UsageError

from ..grading import number
from ..steps import STEPS

PATH = ".github/workflows/classroom.yml"  # where Classroom looks for it, in the template repository
TIMEOUT = 5  # minutes one step's check may take on a runner (it takes seconds)
PYTHON = "3.11"
COMMAND_GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
# Installs what grading needs, once per runner: pytest, and the lab from the student's repository without its
# notebook and plotting dependencies. Later steps find `spec2code` installed and skip it.
SETUP = ('command -v spec2code >/dev/null || { python -m pip install --quiet "pytest>=8" && '
         'python -m pip install --quiet --no-deps -e .; }')


def runner_id(number_: int) -> str:
    """A step's id in the workflow; the reporter reads its result from the variable STEP<N>_RESULTS."""
    return f"step{number_}"


def whole(points) -> None:
    """Refuse points that are not whole numbers: the command grader reads `max-score` with JavaScript's parseInt,
    so 0.5 would count as 0 and 1.5 as 1, and the total Classroom shows would not be the points asked for."""
    fractional = [number(p) for p in points if float(p) != int(p)]
    if fractional:
        raise UsageError(f"GitHub Classroom counts whole points only ({fractional[0]} would count as "
                         f"{int(fractional[0])}): give --points as whole numbers, such as 1,1,2,2,4")


def workflow(points=None, *, timeout: int = TIMEOUT) -> str:
    """The workflow's text: points per step (default 1 each), and the minutes one step's check may take."""
    points = tuple(points or (1.0,) * len(STEPS))
    whole(points)
    q = json.dumps
    lines = [
        "# Built by `spec2code autograder classroom`. GitHub Classroom runs it on every push to a student's",
        "# repository: each step of the lab is checked by `spec2code check N` and scores its points if it passes.",
        "name: Autograding Tests",
        "'on':",
        "  - push",
        "  - repository_dispatch",
        "permissions:",
        "  checks: write",
        "  actions: read",
        "  contents: read",
        "jobs:",
        "  run-autograding-tests:",
        "    runs-on: ubuntu-latest",
        "    if: github.actor != 'github-classroom[bot]'",
        "    steps:",
        "      - name: Checkout code",
        "        uses: actions/checkout@v4",
        "      - name: Set up Python",
        "        uses: actions/setup-python@v5",
        "        with:",
        f"          python-version: {q(PYTHON)}",
    ]
    for step, most in zip(STEPS, points):
        name = f"Step {step.number} ({step.function}): {step.title}"
        lines += [
            f"      - name: {q(name)}",
            f"        id: {runner_id(step.number)}",
            f"        uses: {COMMAND_GRADER}",
            "        with:",
            f"          test-name: {q(name)}",
            f"          setup-command: {q(SETUP)}",
            f"          command: {q(f'spec2code check {step.number}')}",
            f"          timeout: {int(timeout)}",
            f"          max-score: {number(most)}",
        ]
    ids = [runner_id(step.number) for step in STEPS]
    lines += ["      - name: Autograding Reporter", f"        uses: {REPORTER}", "        env:"]
    lines += [f"          {i.upper()}_RESULTS: {q('${{steps.' + i + '.outputs.result}}')}" for i in ids]
    lines += ["        with:", f"          runners: {','.join(ids)}"]
    return "\n".join(lines) + "\n"
