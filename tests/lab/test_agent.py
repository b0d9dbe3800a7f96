"""lab/agent.py is the release view of the reference: the same functions and docstrings, stubs that raise."""

import ast

import pytest

from checks.steps import STEPS, first_not_started
from lab.stubs import render
from tests.paths import LAB_AGENT
from tests.paths import REFERENCE_AGENT as REFERENCE
from tests.shipped import worked_copy


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
    assert contract(render()) == reference
    if contract(LAB_AGENT.read_text()) != reference and first_not_started(LAB_AGENT.read_text()) is not STEPS[0]:
        worked_copy("lab/agent.py")
    assert contract(LAB_AGENT.read_text()) == reference


def test_the_committed_stubs_are_what_reset_restores():
    if LAB_AGENT.read_text() != render() and first_not_started(LAB_AGENT.read_text()) is not STEPS[0]:
        worked_copy("lab/agent.py")
    assert LAB_AGENT.read_text() == render()


def test_each_stub_raises_not_implemented_naming_its_step():
    namespace = {}
    exec(compile(render(), "agent.py", "exec"), namespace)
    arguments = {"extract_code": ("x",), "write_tests": ("spec",), "write_solution": ("spec",), "solve": ("spec",)}
    for step in STEPS:
        with pytest.raises(NotImplementedError, match=rf"^step {step.number} \({step.function}\) is not started yet"):
            namespace[step.function](*arguments.get(step.function, ("code",)))


