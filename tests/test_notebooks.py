"""The notebooks: committed clean, naming the lab's kernel, free of broken references, and executed end to end."""

import ast
import asyncio
import atexit
import builtins
import os
import re
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient

import harness
import harness.settings
import lab.commands
from checks import STEPS
from lab import jupyter as display
from lab.jupyter import launcher as launch
from tests.shipped import stubs_file, worked_copy

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STEP_NOTEBOOKS = [f"{s.number:02d}_{s.function}" for s in STEPS]
EXPECTED = ["00_start"] + STEP_NOTEBOOKS + ["06_beyond"]
CELL_TIMEOUT = 120  # seconds one cell may take before the run counts as hung
PARALLEL = 3  # notebooks executed at once (each in its own kernel)
_SOCKETS: list[str] = []  # the folder of the kernels' sockets, made on first use


def notebook_client(nb, kernel_name, **options) -> NotebookClient:
    """A NotebookClient whose kernel talks over Unix sockets of its own. Over TCP, the ports picked for kernels
    started at once (here, and by another suite on this machine) can be taken before the kernel binds them: it then
    dies at start ("Address already in use")."""
    if not _SOCKETS:
        _SOCKETS.append(tempfile.mkdtemp(prefix="spec2code-kernels-"))  # short: a socket's path has 107 bytes at most
        atexit.register(shutil.rmtree, _SOCKETS[0], True)
    manager = AsyncKernelManager(kernel_name=kernel_name, transport="ipc",
                                 ip=os.path.join(_SOCKETS[0], uuid.uuid4().hex[:12]))
    return NotebookClient(nb, km=manager, **options)


def load(name):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=nbformat.NO_CONVERT)


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def step_of(name):
    return int(name[:2])


# --- committed clean ---------------------------------------------------------------------------------------------


def test_there_is_a_start_page_and_one_notebook_per_step():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_is_valid_v4_without_outputs_and_names_the_lab_kernel(name):
    nb = load(name)
    assert nb.nbformat == 4
    nbformat.validate(nb)
    if any(cell.outputs or cell.execution_count for cell in code_cells(nb)):
        worked_copy(f"notebooks/{name}.ipynb")
    for cell in code_cells(nb):
        assert cell.outputs == [], f"{name}: commit notebooks without outputs (Clear All Outputs, then save)"
        assert cell.execution_count is None, f"{name}: a cell has an execution count"
    assert nb.metadata.kernelspec.name == launch.KERNEL_NAME
    assert nb.metadata.kernelspec.display_name == launch.KERNEL_DISPLAY_NAME


@pytest.mark.parametrize("name", STEP_NOTEBOOKS)
def test_step_notebook_has_a_check_cell_and_a_try_it_cell_for_its_step(name):
    sources = [c.source for c in code_cells(load(name))]
    function = name[3:]
    assert sum(f"check_step({step_of(name)})" in s for s in sources) == 1
    assert any(f'try_function("{function}"' in s for s in sources)


# --- no broken references ----------------------------------------------------------------------------------------

AGENT_FUNCTIONS = {s.function for s in STEPS}
PATH = re.compile(r"(?<![\w/.])((?:lab|harness|checks|solutions|notebooks|tests)/[\w./-]*\w)")
HARNESS_ATTR = re.compile(r"\bharness((?:\.\w+)+)")
COMMAND = re.compile(r"\bspec2code (\w[\w-]*)")
ENV = re.compile(r"\b((?:SPEC2CODE|OPENAI)_[A-Z_]+)")
NOTEBOOK_NAME = re.compile(r"\b(\d\d_\w+\.ipynb)")
CALL = re.compile(r"\b(check_step|try_function|run_reference)\((\d+|\"\w+\")")


def broken_references(text):
    """What a notebook's text mentions that does not exist: files, harness names, commands, settings, functions."""
    broken = []
    for path in PATH.findall(text):
        if not (ROOT / path).exists():
            broken.append(f"file {path}")
    for name in NOTEBOOK_NAME.findall(text):
        if not (NOTEBOOKS / name).exists():
            broken.append(f"notebook {name}")
    for chain in HARNESS_ATTR.findall(text):
        target = harness
        for attr in chain.strip(".").split("."):
            if not hasattr(target, attr):
                broken.append(f"harness{chain}")
                break
            target = getattr(target, attr)
    for command in COMMAND.findall(text):
        if command not in lab.commands.COMMANDS:
            broken.append(f"command spec2code {command}")
    for variable in ENV.findall(text):
        if variable not in harness.settings.VARIABLES:
            broken.append(f"setting {variable}")
    for helper, argument in CALL.findall(text):
        if helper == "check_step" and int(argument) not in {s.number for s in STEPS}:
            broken.append(f"check_step({argument})")
        if helper != "check_step" and argument.strip('"') not in AGENT_FUNCTIONS:
            broken.append(f"{helper}({argument})")
    for word in re.findall(r"`(\w+)\(", text):  # `name(...)` in prose: a function the learner or lab defines
        if word not in AGENT_FUNCTIONS and not hasattr(harness, word) and not hasattr(display, word):
            broken.append(f"function {word}")
    return broken


def imported_names(source):
    """(module, name) for each `from X import a, b` and `import X` in a code cell."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            yield from ((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_mentions_only_things_that_exist(name):
    nb = load(name)
    text = "\n".join(c.source for c in nb.cells)
    assert broken_references(text) == []
    for cell in code_cells(nb):
        for module, imported in imported_names(cell.source):
            loaded = __import__(module, fromlist=["_"])
            assert imported is None or hasattr(loaded, imported), f"{name}: {module} has no {imported}"


def test_the_reference_finder_catches_what_it_should():
    text = (
        "Open lab/agnet.py and 07_extra.ipynb, call `harness.asks(prompt)` or `extract_cod(reply)`, "
        "run spec2code chek with SPEC2CODE_MODLE=live, then check_step(6) and try_function(\"slove\", x)."
    )
    assert broken_references(text) == [
        "file lab/agnet.py", "notebook 07_extra.ipynb", "harness.asks", "command spec2code chek",
        "setting SPEC2CODE_MODLE", "check_step(6)", 'try_function("slove")',
        "function extract_cod",
    ]
    assert broken_references("Edit lab/agent.py, then run `spec2code check` and harness.tasks.LEAP_YEAR.reference") == []


# --- one notebook leads to the next, and each cell runs on its own ------------------------------------------------

MARKDOWN_LINK = re.compile(r"\[(\d\d_\w+\.ipynb)\]\((\d\d_\w+\.ipynb)\)")


def linked(source):
    """The notebooks a markdown text links to, as [name](name)."""
    return [target for text, target in MARKDOWN_LINK.findall(source) if text == target]


@pytest.mark.parametrize("name, after", list(zip(EXPECTED, EXPECTED[1:])))
def test_each_notebook_ends_with_a_markdown_link_to_the_next(name, after):
    last = [c for c in load(name).cells if c.cell_type == "markdown"][-1]
    assert f"{after}.ipynb" in linked(last.source), f"{name}: its last words link {linked(last.source)}"
    assert (NOTEBOOKS / f"{after}.ipynb").exists()
    assert not any("ipynb" in c.source for c in code_cells(load(name))), f"{name}: a notebook is named in code"


def test_the_start_notebook_lists_every_notebook_as_a_link():
    [how] = [c for c in load("00_start").cells if c.source.startswith("## How to work")]
    assert linked(how.source) == [f"{n}.ipynb" for n in EXPECTED[1:]]


def unbound(source):
    """The names a code cell uses that it neither imports nor defines (nor Python has): what it needs from others."""
    tree = ast.parse(source)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    return sorted(used - bound)


@pytest.mark.parametrize("name", EXPECTED)
def test_every_code_cell_needs_nothing_from_an_earlier_cell(name):
    """The lab stops idle kernels, and a student runs any cell first: each cell imports and defines what it uses."""
    for i, cell in enumerate(code_cells(load(name))):
        assert unbound(cell.source) == [], f"{name}, code cell {i}: {cell.source.splitlines()[0]}"


def test_the_unbound_finder_catches_what_it_should():
    assert unbound("from x import a\nb = a(c)\nprint([d for d in b], len(e))") == ["c", "e"]
    assert unbound("def f(x):\n    return x + y\nimport os.path\nos.sep") == ["y"]


@pytest.mark.slow
def test_every_code_cell_runs_alone_in_a_fresh_kernel(lab_kernel, tmp_path):
    """As after the lab stopped the kernel: a new one, and only this cell run in it (on the stubs)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SPEC2CODE_AGENT", "SPEC2CODE_MODEL")}
    env["SPEC2CODE_AGENT"] = str(stubs_file(tmp_path))
    at_once = asyncio.Semaphore(PARALLEL)

    async def alone(name, i, cell):
        nb = nbformat.v4.new_notebook(metadata=load(name).metadata)
        nb.cells = [nbformat.v4.new_code_cell(cell.source)]
        client = notebook_client(nb, lab_kernel, timeout=CELL_TIMEOUT, allow_errors=True,
                                 resources={"metadata": {"path": str(NOTEBOOKS)}})
        async with at_once:
            await client.async_execute(env=env)
        return [f"{name}, code cell {i}: {error}" for error in errors(nb)]

    async def every():
        cells = [(name, i, cell) for name in EXPECTED for i, cell in enumerate(code_cells(load(name)))]
        return [e for found in await asyncio.gather(*(alone(*c) for c in cells)) for e in found]

    assert asyncio.run(every()) == []


# --- executed end to end -----------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def lab_kernel():
    """The lab's named kernel, registered as `spec2code lab --setup-only` does it."""
    launch.setup()
    return launch.KERNEL_NAME


def execute_all(kernel_name, agent=None, names=EXPECTED):
    """Run every notebook in a fresh kernel each (cwd notebooks/, as JupyterLab does), a few at a time.

    Returns {name: executed notebook}. SPEC2CODE_AGENT selects the agent, as a learner's shell would.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("SPEC2CODE_AGENT", "SPEC2CODE_MODEL")}
    if agent:
        env["SPEC2CODE_AGENT"] = str(agent)
    at_once = asyncio.Semaphore(PARALLEL)

    async def one(name):
        nb = load(name)
        for cell in code_cells(nb):  # a worked copy's outputs play no part: the run makes its own
            cell.outputs, cell.execution_count = [], None
        client = notebook_client(nb, kernel_name, timeout=CELL_TIMEOUT, allow_errors=True,
                                 resources={"metadata": {"path": str(NOTEBOOKS)}})
        async with at_once:
            await client.async_execute(env=env)
        return name, nb

    async def every():
        return dict(await asyncio.gather(*(one(name) for name in names)))

    return asyncio.run(every())


def outputs(cell, mime="text/plain"):
    """The text of one cell's outputs: streams, errors, and the given MIME type of rich outputs."""
    parts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type == "error":
            parts.append(f"ERROR {out.ename}: {out.evalue}")
        else:
            parts.append(out.get("data", {}).get(mime, ""))
    return "\n".join(parts)


def errors(nb):
    return [
        f"cell {i}: {out.ename}: {out.evalue}"
        for i, cell in enumerate(code_cells(nb))
        for out in cell.outputs
        if out.output_type == "error"
    ]


def cells_calling(nb, helper):
    return [c for c in code_cells(nb) if f"{helper}(" in c.source]


@pytest.fixture(scope="session")
def executed_with_stubs(lab_kernel, tmp_path_factory):
    """The notebooks run on the stubs, written afresh: a student's own lab/agent.py plays no part."""
    return execute_all(lab_kernel, agent=stubs_file(tmp_path_factory.mktemp("stubs")))


@pytest.fixture(scope="session")
def executed_with_reference(lab_kernel, request):
    start = time.perf_counter()
    done = execute_all(lab_kernel, agent=ROOT / "solutions" / "agent.py")
    seconds = time.perf_counter() - start
    report = f"Executing all {len(done)} notebooks with the reference agent took {seconds:.1f} s (target: under 60 s)"
    request.config.stash[TIMING] = report
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "notebook-timing.txt").write_text(report + "\n", encoding="utf-8")
    return done


TIMING = pytest.StashKey[str]()


@pytest.mark.slow
@pytest.mark.parametrize("name", EXPECTED)
def test_with_the_stubs_every_cell_runs_and_every_step_is_not_started(executed_with_stubs, name):
    nb = executed_with_stubs[name]
    assert errors(nb) == []
    for cell in cells_calling(nb, "check_step"):
        text = outputs(cell)
        assert re.search(r"^Step \d · \w+ \(.*\): not started", text, re.M), text
        assert 'data-status="not started"' in outputs(cell, "text/html")
    for cell in cells_calling(nb, "try_function"):
        assert "is not started yet" in outputs(cell), outputs(cell)
    for cell in cells_calling(nb, "progress"):
        assert "0 of 5 steps pass" in outputs(cell) and outputs(cell).count("not started") == 5


@pytest.mark.slow
@pytest.mark.parametrize("name", EXPECTED)
def test_with_the_reference_every_check_passes(executed_with_reference, name):
    nb = executed_with_reference[name]
    assert errors(nb) == []
    for cell in cells_calling(nb, "check_step"):
        text = outputs(cell)
        assert re.search(r"^Step \d · \w+ \(.*\): passed: all \d+ checks pass", text, re.M), text
        assert 'data-status="passed"' in outputs(cell, "text/html")
    for cell in cells_calling(nb, "try_function"):
        text = outputs(cell)
        assert "returned:" in text or "solve() passed after" in text, text
    for cell in cells_calling(nb, "progress"):
        assert "5 of 5 steps pass" in outputs(cell)


@pytest.mark.slow
def test_the_demonstrations_show_what_they_promise(executed_with_stubs):
    """The demos run the lab's own agent, so they work before the learner has written anything."""
    start, step1, step3, step4, step5 = (executed_with_stubs[n] for n in ("00_start", *EXPECTED[1:2], *EXPECTED[3:6]))
    assert "is_leap_year(year)" in outputs(code_cells(start)[0])
    assert "```" in outputs(code_cells(step1)[0])  # a real reply, with a fence to find
    run = outputs(code_cells(step3)[0])
    assert "'failed': ['test_" in run and "'error': None" in run  # the buggy solution fails named tests
    rounds = code_cells(step4)[0]  # a table, then a chart
    assert "solve() passed after 2 round(s)" in outputs(rounds)
    assert any("image/png" in out.get("data", {}) for out in rounds.outputs)
    contrast = bars = code_cells(step5)[1]
    rows = {line.split("  ")[0]: line for line in outputs(contrast).splitlines()}
    assert re.search(r"(\d+) of \1\s+(\d+) of \2\s+-$", rows["honest model"])  # green everywhere
    assert re.search(r"(\d+) of \1\s+(\d+) of (?!\2)\d+\s+test_", rows["gaming model"])  # visible green, held-out red
    assert any("image/png" in out.get("data", {}) for out in bars.outputs)


@pytest.mark.slow
def test_notebook_06_shows_test_quality_the_gap_and_a_trail(executed_with_stubs):
    """Its demonstrations run the lab's finished agent, so they work before the learner has written anything."""
    leap, duration, table, trail, humaneval = (outputs(c) for c in code_cells(executed_with_stubs["06_beyond"]))
    assert "leap_year: the tests catch 5 of 5 planted bugs" in leap and "passes on a constant" in leap
    assert "parse_duration: the tests catch 8 of 13 planted bugs" in duration and "MISSED" in duration
    rows = [line.split() for line in table.splitlines()]
    assert ["honest", "model", "wrap_text", "100%", "100%", "0%", "3", "-"] in rows
    assert ["gaming", "model", "wrap_text", "100%", "45%", "55%", "2", "1"] in rows
    chart_cell = code_cells(executed_with_stubs["06_beyond"])[2]  # the table, then the chart
    assert any("image/png" in out.get("data", {}) for out in chart_cell.outputs)
    assert "! line 5: special-cases inputs of the visible tests: 1900, 2100" in trail and "verdict" in trail
    assert "Overall: visible 100%, held-out 29%, gap 71% over 20 tasks." in humaneval  # HumanEval/0-19
    bank_chart = code_cells(executed_with_stubs["06_beyond"])[4]
    assert any("image/png" in out.get("data", {}) for out in bank_chart.outputs)


@pytest.mark.slow
def test_a_syntax_error_in_the_agent_is_a_message_with_its_line_in_every_cell(lab_kernel, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text("import harness\n\n\ndef extract_code(reply):\n    return reply.strip(\n", encoding="utf-8")
    nb = execute_all(lab_kernel, agent=agent, names=["01_extract_code"])["01_extract_code"]
    assert errors(nb) == []
    [check] = cells_calling(nb, "check_step")
    assert "line 5" in outputs(check) and "Traceback" not in outputs(check), outputs(check)
    for cell in cells_calling(nb, "try_function"):
        assert "has a syntax error on line 5" in outputs(cell), outputs(cell)


@pytest.mark.slow
def test_notebook_timing_is_reported(executed_with_reference, request, capsys):
    with capsys.disabled():
        print(f"\n{request.config.stash[TIMING]}")


@pytest.mark.slow
def test_the_lab_kernel_shows_the_labs_own_errors_as_messages_not_tracebacks(lab_kernel):
    from nbformat.v4 import new_code_cell, new_notebook

    nb = new_notebook(cells=[new_code_cell("import harness\nharness.ask('Write is_leap_year(year)')"),
                             new_code_cell("print('not reached')")])
    client = notebook_client(nb, lab_kernel, timeout=CELL_TIMEOUT)
    env = dict(os.environ, SPEC2CODE_MODLE="live")  # a typo the lab refuses, with a suggestion
    with pytest.raises(Exception):  # the cell still fails, so "Run All" stops there
        client.execute(env=env)
    [shown] = nb.cells[0].outputs
    assert shown.output_type == "display_data"
    assert shown.data["text/plain"].startswith("SettingsError: Unknown setting SPEC2CODE_MODLE. Did you mean")
    assert nb.cells[1].outputs == []
