"""The learner's starting file, made from the reference: the same signatures and docstrings, bodies that raise.

`render()` is the one source of lab/agent.py: `spec2code reset` writes it, and a test keeps the committed file
equal to it, so the stubs cannot drift from solutions/agent.py.
"""

from __future__ import annotations

import ast

from checks.steps import STEPS
from harness import syntax
from harness.settings import REFERENCE_AGENT

HEADER = '''\
"""Your agent: five functions, one per step. Write them in order, replacing each `raise NotImplementedError`.

See what your functions return with `python lab/try_it.py`; check a step with `spec2code check N` (N = 1..5).
To start over, `spec2code reset` saves this file in lab/saved/ and puts the stubs back.
"""

import harness'''


def stub_line(number: int, function: str) -> str:
    return f'    raise NotImplementedError("step {number} ({function}) is not started yet: replace this line with your code")'


def render(reference_source: str | None = None) -> str:
    """The stub file: each step's function from the reference, down to its docstring, then a raise."""
    source = REFERENCE_AGENT.read_text(encoding="utf-8") if reference_source is None else reference_source
    lines = source.splitlines()
    functions = {node.name: node for node in syntax.parse(source).body if isinstance(node, ast.FunctionDef)}
    parts = [HEADER]
    for step in STEPS:
        node = functions[step.function]
        docstring = node.body[0]
        if not (isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)):
            raise ValueError(f"{step.function} in the reference has no docstring to copy")
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        head = "\n".join(lines[first - 1 : docstring.end_lineno])
        parts.append(f"{head}\n{stub_line(step.number, step.function)}")
    return "\n\n\n".join(parts) + "\n"
