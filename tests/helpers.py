"""Small helpers several test files share."""

import atexit
import functools
import shutil
import tempfile
import textwrap
from pathlib import Path

import pytest


def first_fast(values) -> list:
    """Cases for pytest.mark.parametrize (or a fixture's params): the first in the fast lane, every other marked slow,
    so that `make test-fast` checks one case of the kind and `make test` checks them all."""
    first, *rest = list(values)
    return [first, *(pytest.param(value, marks=pytest.mark.slow) for value in rest)]


def write_agent(folder: Path, source: str, name: str = "agent.py") -> Path:
    """An agent file in `folder` holding `source` (dedented), as a learner would save it."""
    path = Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def stubs_with(source: str | None = None, **bodies: str) -> str:
    """The stubs (or `source`) with each named function's "not started" line replaced by the code given, as a
    learner who has written that step: stubs_with(extract_code="return reply")."""
    from checks.steps import BY_FUNCTION
    from lab.stubs import render, stub_line

    text = render() if source is None else source
    for function, body in bodies.items():
        stub = stub_line(BY_FUNCTION[function].number, function).strip()
        if stub not in text:
            raise ValueError(f"{function} is no longer a stub here")
        text = text.replace(stub, body, 1)
    return text


def exit_status(main, argv: list[str]) -> int:
    """The status a shell sees from a command's main(argv): what it returns, or what its parser exits with."""
    try:
        return main(argv)
    except SystemExit as stopped:
        return stopped.code


def self_contained(agent: Path, folder: Path) -> Path:
    """A copy of a fixture agent, in `folder`, that runs where the grader's child runs: without the project in
    view. Its `from solutions.agent import a, b` line becomes the reference's source of a and b (with the imports
    and private helpers they use), so the copy still keeps only its one mistake visible."""
    lines = [_reference_source_of(line) if line.startswith("from solutions.agent import") else line
             for line in Path(agent).read_text(encoding="utf-8").splitlines(keepends=True)]
    copy = Path(folder) / Path(agent).name
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text("".join(lines), encoding="utf-8")
    return copy


def _reference_source_of(line: str) -> str:
    import ast

    from tests.paths import REFERENCE_AGENT

    imported = [n.split(" as ") for n in line.split("import", 1)[1].split("#")[0].replace(" ", " ").split(",")]
    names = [parts[0].strip() for parts in imported]
    aliases = [f"{parts[1].strip()} = {parts[0].strip()}\n" for parts in imported if len(parts) == 2]
    source = REFERENCE_AGENT.read_text(encoding="utf-8")
    tree, text = ast.parse(source), source.splitlines(keepends=True)
    defined = {getattr(node, "name", None) or node.targets[0].id: node for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.Assign))}
    wanted = [n for n in names if n in defined]
    helpers, todo = [], list(wanted)
    while todo:  # the private helpers the wanted functions use, and the ones those use
        used = {n.id for n in ast.walk(defined[todo.pop()]) if isinstance(n, ast.Name)}
        for name in sorted(used):
            if name.startswith("_") and name in defined and name not in helpers and name not in wanted:
                helpers.append(name)
                todo.append(name)
    helpers.sort(key=lambda name: defined[name].lineno)
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    pieces = ["".join(text[node.lineno - 1 : node.end_lineno]) for node in imports]
    pieces += ["".join(text[defined[n].lineno - 1 : defined[n].end_lineno]) for n in helpers + wanted]
    return "\n".join(pieces) + "\n" + "".join(aliases)


@functools.lru_cache(maxsize=1)
def contained_corpus() -> Path:
    """The fixture agents (agents/wrong, correct, forging, special), each made `self_contained`, in a folder of the
    same layout that lasts as long as the test session."""
    from tests.paths import AGENTS

    folder = Path(tempfile.mkdtemp(prefix="spec2code-agents-"))
    atexit.register(shutil.rmtree, folder, True)
    for path in AGENTS.glob("*/*.py"):
        self_contained(path, folder / path.parent.name)
    return folder


def leap_year_grid() -> tuple[dict, dict]:
    """The 8 x 12 of the README's matrix: eight leap-year solutions (the reference, its planted bugs, the gamed fix,
    one that always says False) and twelve tests (the model's 5 and the first 7 held-out ones, each a source of its
    own)."""
    import ast

    from harness.tasks import LEAP_YEAR

    solutions = {"reference": LEAP_YEAR.reference, **LEAP_YEAR.buggy, "gamed": LEAP_YEAR.script.gamed_fix,
                 "always False": "def is_leap_year(year):\n    return False\n"}
    tests = {}
    for source in (LEAP_YEAR.script.tests, LEAP_YEAR.holdout_tests):
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef) and len(tests) < 12:
                decorators = "".join(f"@{ast.get_source_segment(source, d)}\n" for d in node.decorator_list)
                tests[f"{len(tests)}:{node.name}"] = "import pytest\n\n\n" + decorators + ast.get_source_segment(
                    source, node)
    return solutions, tests
