"""The session memory benchmark's arithmetic: the process tree it walks, the PSS it reads, the kinds it names
(bench/process_memory.py), and the notebooks it runs (bench/session_memory.py)."""

import os
import subprocess
import sys

import pytest

from tests.paths import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import process_memory as bench  # noqa: E402
import session_memory  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the benchmark reads Linux's /proc")


@pytest.fixture
def sandbox_like_child(tmp_path):
    """A child process whose command line looks like the sandbox server's: python .../sandbox/server.py."""
    script = tmp_path / "sandbox" / "server.py"
    script.parent.mkdir()
    script.write_text("import sys, time\nsys.stdout.write('up\\n'); sys.stdout.flush(); time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "up\n"
    yield child
    child.kill()
    child.wait()


def test_the_tree_holds_the_process_and_its_children_and_each_has_a_kind(sandbox_like_child):
    assert bench.tree(os.getpid())[0] == os.getpid()
    assert sandbox_like_child.pid in bench.tree(os.getpid())
    assert bench.kind(sandbox_like_child.pid) == "sandbox"
    assert bench.pss_kib(sandbox_like_child.pid) > 1000  # a Python process holds at least a few MB of its own


def still_tree_and_memory(pid: int, tries: int = 20) -> tuple[list[int], dict]:
    """The tree below `pid` and its memory by kind, read while the tree stays the same: a sandbox server that tests
    before this one left below this process forks a spare after each run, and on a busy machine a fork can land
    between two reads."""
    for _ in range(tries):
        before = bench.tree(pid)
        by_kind = bench.session_memory(pid)
        if bench.tree(pid) == before:
            return before, by_kind
    raise AssertionError(f"the process tree below {pid} never stayed the same for two reads")


def test_the_session_sums_pss_by_kind(sandbox_like_child):
    # Tests run before this one may have left sandbox servers of their own below this process: count what is there.
    tree, by_kind = still_tree_and_memory(os.getpid())
    sandboxes = [pid for pid in tree if bench.kind(pid) == "sandbox"]
    count, kib = by_kind["sandbox"]
    assert sandbox_like_child.pid in sandboxes and count == len(sandboxes)
    assert kib >= bench.pss_kib(sandbox_like_child.pid) > 0
    assert sum(n for n, _ in by_kind.values()) == len(tree)


def test_a_process_that_has_gone_counts_nothing():
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert bench.pss_kib(int(done.stdout)) == 0 and bench.kind(int(done.stdout)) == "gone"


def test_the_notebooks_code_cells_are_what_the_bench_runs():
    sources = session_memory.code_cells(ROOT / "notebooks" / "01_extract_code.ipynb")
    assert sum("check_step(1)" in source for source in sources) == 1
    notebooks = session_memory.NOTEBOOKS
    assert [p.name for p in notebooks] == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks[0].name == "00_start.ipynb" and len(notebooks) >= 6
