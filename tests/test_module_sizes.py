"""Small modules, one idea each: none over 300 lines unless its docstring says why."""

import ast

import pytest

from tests.paths import ROOT

LIMIT = 300
FOLDERS = ("harness", "checks", "lab", "solutions", "bench")
NOT_OURS = {"node_modules", "__pycache__"}  # what `make labextension` downloads beside the extension's sources
MODULES = sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if not NOT_OURS & set(p.parts))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_is_short_or_says_why_it_is_not(path):
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    docstring = ast.get_docstring(ast.parse(source)) or ""
    assert docstring, f"{path.name} opens with no docstring saying what it is"
    assert lines <= LIMIT or f"over {LIMIT} lines" in docstring.lower(), (
        f"{path.name} has {lines} lines; split it, or say in its docstring why it is over {LIMIT} lines"
    )
