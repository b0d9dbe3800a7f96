"""The sandbox's own processes never import the `harness` package (it holds the held-out tests), and the solution
sees none of the lab's modules: checked for every module the server loads, new ones included."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import harness

SANDBOX = Path(harness.__file__).parent / "sandbox"
CALLER_SIDE = {"__init__.py", "caller.py", "records.py", "results.py"}  # the lab's side, never loaded by the server


def test_no_module_the_server_loads_imports_the_harness_package():
    for path in SANDBOX.glob("*.py"):
        if path.name in CALLER_SIDE:
            continue
        source = path.read_text()
        assert not re.search(r"^\s*(from|import)\s+(harness|\.)", source, re.M), path.name
        assert "tasks" not in re.findall(r"^\s*(?:from|import)\s+(\w+)", source, re.M), path.name


def _lab_modules() -> tuple:
    tree = ast.parse((SANDBOX / "solution_side.py").read_text())
    return next(ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "LAB_MODULES")


LAB_MODULES = _lab_modules()


def test_the_solution_is_left_none_of_the_sandboxs_modules():
    server_side = {p.stem for p in SANDBOX.glob("*.py") if p.name not in CALLER_SIDE | {"server.py"}}  # __main__ there
    assert server_side <= set(LAB_MODULES)


def test_every_module_is_small_or_says_why_not():
    for path in SANDBOX.glob("*.py"):
        lines = path.read_text().splitlines()
        docstring = path.read_text().split('"""')[1]
        assert len(lines) <= 300 or "300 lines" in docstring, f"{path.name}: {len(lines)} lines"


FORGETTING = """
import sys, types
sys.path[:0] = [{sandbox!r}, {harness!r}]  # as the server loads them: by name (text.py by path there)
import pytest, solution_side
assert "_pytest" in sys.modules and "walls" in sys.modules
solution_side.name_lab_modules()
if {late}:  # a lab module loaded after the server named them: forgotten all the same
    sys.modules["pytest.loaded_late"] = types.ModuleType("pytest.loaded_late")
solution_side.forget_lab_modules()
print(sorted(m for m in sys.modules if m.split(".")[0] in solution_side.LAB_MODULES))
"""


@pytest.mark.parametrize("late", [False, True])
def test_the_solutions_process_forgets_every_lab_module_named_or_loaded_since(late):
    code = FORGETTING.format(sandbox=str(SANDBOX), harness=str(SANDBOX.parent), late=late)
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_solution_finds_none_of_the_lab_modules_in_sys_modules():
    solution = ("import sys\n"
                f"LAB = {LAB_MODULES!r}\n"
                "def lab_modules_seen():\n"
                "    return sorted(m for m in sys.modules if m.split('.')[0] in LAB)\n")
    result = harness.run(solution, "def test_none():\n    assert lab_modules_seen() == []\n")
    assert result["passed"] == 1 and result["error"] is None, result["output"]
