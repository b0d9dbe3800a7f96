"""The sandbox's own processes never import the `harness` package (it holds the held-out tests), and the solution
sees none of the lab's modules: checked for every module the server loads, new ones included."""

import ast
import re
from pathlib import Path

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


def test_the_solution_is_left_none_of_the_sandboxs_modules():
    tree = ast.parse((SANDBOX / "solution_side.py").read_text())
    listed = next(ast.literal_eval(node.value) for node in tree.body
                  if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "LAB_MODULES")
    server_side = {p.stem for p in SANDBOX.glob("*.py") if p.name not in CALLER_SIDE | {"server.py"}}  # __main__ there
    assert server_side <= set(listed)


def test_every_module_is_small_or_says_why_not():
    for path in SANDBOX.glob("*.py"):
        lines = path.read_text().splitlines()
        docstring = path.read_text().split('"""')[1]
        assert len(lines) <= 300 or "300 lines" in docstring, f"{path.name}: {len(lines)} lines"
