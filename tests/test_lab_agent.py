"""The learner's side: lab/agent.py is the release view of the reference, and lab/try_it.py shows each step."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from checks.steps import STEPS
from lab.commands.stubs import render

ROOT = Path(__file__).resolve().parent.parent
LAB_AGENT = ROOT / "lab" / "agent.py"
REFERENCE = ROOT / "solutions" / "agent.py"


def contract(source: str) -> list:
    """Each public function as (name, parameters with defaults, docstring), in order."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            found.append((node.name, ast.dump(node.args), ast.get_docstring(node, clean=False)))
    return found


def test_the_stubs_have_the_references_functions_signatures_and_docstrings():
    reference = contract(REFERENCE.read_text())
    assert [name for name, _, _ in reference] == [step.function for step in STEPS]
    assert contract(LAB_AGENT.read_text()) == reference
    assert contract(render()) == reference


def test_the_committed_stubs_are_what_reset_restores():
    assert LAB_AGENT.read_text() == render()


def test_each_stub_raises_not_implemented_naming_its_step():
    namespace = {}
    exec(compile(render(), "agent.py", "exec"), namespace)
    arguments = {"extract_code": ("x",), "write_tests": ("spec",), "write_solution": ("spec",), "solve": ("spec",)}
    for step in STEPS:
        with pytest.raises(NotImplementedError, match=rf"^step {step.number} \({step.function}\) is not started yet"):
            namespace[step.function](*arguments.get(step.function, ("code",)))


def try_it(agent: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "lab" / "try_it.py"), "--agent", str(agent)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_try_it_stops_at_the_first_step_not_started(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render().replace(
        'raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")',
        "return reply.strip()",
    ))
    done = try_it(path)
    assert done.returncode == 0
    assert "extract_code('  z = 3\\n'): z = 3" in done.stdout
    assert "write_tests is not started yet" in done.stdout and "Step 3" not in done.stdout


def test_try_it_runs_every_step_of_the_reference():
    done = try_it(REFERENCE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "solve returned passed: True" in done.stdout
    assert "holdout_check(a solution that forgets the century rule): ['test_" in done.stdout
    assert done.stdout.rstrip().endswith("Every step ran. Grade them with: spec2code check")


def test_try_it_shows_an_error_in_the_agent_without_a_traceback(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render().replace(
        'raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")',
        "return reply.split('```')[3]",
    ))
    done = try_it(path)
    assert done.returncode == 1
    assert "IndexError: list index out of range (agent.py line" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
