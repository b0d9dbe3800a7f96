"""The sandbox server cleans up on every exit path: Ctrl-C at the caller's terminal, a dying caller, hostile trees."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import harness
from harness.sandbox import caller
from tests.paths import ROOT

ADD = "def add(a, b):\n    return a + b\n"
TEST_ADD = "def test_it():\n    assert add(1, 2) == 3\n"

# A caller that starts a run of a solution that sleeps, says where its server keeps its folder, then waits.
CALLER = f"""
import json, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal, even where the suite ignores Ctrl-C
sys.path.insert(0, {str(ROOT)!r})
import harness
from harness.sandbox import caller
harness.run({ADD!r}, {TEST_ADD!r})
print(json.dumps({{"folder": caller._SERVER.hello["folder"], "server": caller._SERVER.proc.pid}}), flush=True)
harness.run("import time\\ndef add(a, b):\\n    time.sleep(60)\\n", {TEST_ADD!r}, timeout=60)
"""


def gone(pid: int, folder: str, patience: float = 60.0) -> bool:
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            alive = open(f"/proc/{pid}/stat").read().split()[2] != "Z"
        except OSError:
            alive = False
        if not alive and not os.path.exists(folder):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
def test_a_server_killed_with_its_caller_leaves_its_folder_to_the_next_server_which_removes_it():
    # SIGKILL for both at once (the OOM killer, a container's cgroup killed): neither can clean up.
    proc = subprocess.Popen([sys.executable, "-c", CALLER], stdout=subprocess.PIPE, text=True)
    try:
        facts = json.loads(proc.stdout.readline())
        os.kill(facts["server"], signal.SIGKILL)
        proc.kill()
        proc.wait(90)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert os.path.isdir(facts["folder"])
    next_caller = CALLER.split("harness.run(")[0] + f"harness.run({ADD!r}, {TEST_ADD!r})\n"
    subprocess.run([sys.executable, "-c", next_caller], check=True, timeout=120)
    assert not os.path.exists(facts["folder"]), "the next server left a dead server's folder"


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "killed"])
def test_the_server_removes_its_folder_when_its_caller_is_interrupted_or_dies(how):
    # Ctrl-C at a terminal sends SIGINT to the whole foreground process group: the caller's.
    proc = subprocess.Popen([sys.executable, "-c", CALLER], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        facts = json.loads(proc.stdout.readline())
        time.sleep(1.0)  # the sleeping run is under way
        os.killpg(proc.pid, how)
        proc.wait(90)  # generous: a loaded machine (two test suites at once) is slow
    finally:
        if proc.poll() is None:
            proc.kill()
    assert gone(facts["server"], facts["folder"]), f"{facts} left behind"


@pytest.mark.slow  # makes and removes a deep tree through the server; test_tidy.py removes a deeper one, fast
def test_a_deep_folder_tree_made_by_hostile_tests_is_removed(monkeypatch):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", "process")  # the tests' folder is then on the machine's disk
    tests = (
        "import os\n"
        "def test_it():\n"
        "    fd = os.open('.', os.O_RDONLY)\n"
        "    for _ in range(5000):\n"
        "        os.mkdir('d', dir_fd=fd)\n"
        "        below = os.open('d', os.O_RDONLY, dir_fd=fd)\n"
        "        os.close(fd)\n"
        "        fd = below\n"
        "    os.fchmod(fd, 0)\n"
        "    assert add(1, 2) == 3\n"
    )
    harness.run(ADD, TEST_ADD)
    folder = caller._SERVER.hello["folder"]
    spare = {name for name in os.listdir(folder) if name.startswith("run-")}  # the folder the next run uses
    result = harness.run(ADD, tests, timeout=60)
    assert result["passed"] == 1, result
    assert harness.run(ADD, TEST_ADD)["passed"] == 1  # served once the tree is gone: the server is one loop
    assert spare.isdisjoint(os.listdir(folder))


@pytest.mark.slow
def test_a_server_that_dies_is_replaced_and_the_run_says_so():
    harness.run(ADD, TEST_ADD)
    old = caller._SERVER.proc.pid
    os.kill(old, signal.SIGKILL)
    caller._SERVER.proc.wait()
    result = harness.run(ADD, TEST_ADD)
    assert result["passed"] == 1 and caller._SERVER.proc.pid != old


def spares_of(server: int) -> int:
    """The server's children that wait for a run (a spare's first process, and a run's, is a child of the server)."""
    with open(f"/proc/{server}/task/{server}/children") as f:
        return len(f.read().split())


@pytest.mark.slow
def test_the_server_keeps_a_second_spare_only_while_runs_overlap():
    """One spare suits one run at a time (and a session's memory); runs from two threads at once get two, so the
    second thread does not wait for a spare to be made."""
    from concurrent.futures import ThreadPoolExecutor

    harness.run(ADD, TEST_ADD)
    server = caller._SERVER.proc.pid
    for _ in range(3):
        assert harness.run(ADD, TEST_ADD)["passed"] == 1
    assert spares_of(server) == 1
    slow = "import time\ndef add(a, b):\n    time.sleep(0.3)\n    return a + b\n"
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda source: harness.run(source, TEST_ADD), [slow] * 4))
    assert [r["passed"] for r in results] == [1] * 4, results
    assert spares_of(server) == 2
    assert caller._SERVER.proc.pid == server  # the same server all along


def test_each_test_process_starts_with_the_module_table_a_failure_report_reads():
    # Cold, inspect.getmodule walked every loaded module's path (about 3,000 stat calls, 15 ms) in each test process
    # that reported a failure; the server fills the table once, and its forks start with it.
    tests = ("import inspect, sys\n\n"
             "def test_the_table_is_full():\n"
             "    assert len(inspect._filesbymodname) > len(sys.modules) // 2\n\n"
             "def test_a_failure_still_shows_its_line():\n"
             "    assert add(1, 2) == 4\n")
    result = harness.run(ADD, tests)
    assert result["failed"] == ["test_a_failure_still_shows_its_line"], result["output"]
    assert "assert add(1, 2) == 4" in result["output"] and "assert 3 == 4" in result["output"], result["output"]


def test_the_tests_and_the_solution_collect_their_garbage_though_the_server_started_without():
    # The server collects nothing until its warm state is frozen; its forks must collect, or a test that makes
    # cyclic garbage in a loop would run out of memory where pytest itself would pass.
    solution = "import gc\n\ndef collects():\n    return gc.isenabled()\n"
    tests = ("import gc\n\n"
             "def test_both_collect():\n"
             "    assert gc.isenabled() and collects() is True\n\n"
             "def test_cycles_are_freed():\n"
             "    class Node: pass\n"
             "    for _ in range(2_000_000):\n"
             "        node = Node(); node.me = node; node.data = bytearray(1000)\n")
    result = harness.run(solution, tests)
    assert result["error"] is None and result["passed"] == 2, result


def pytest_itself(folder, source: str, keyword: str) -> str:
    """What `python -m pytest` prints for `source` as test_solution.py, the tests named like `keyword` run as the
    sandbox runs them (--tb=short), and in the server's environment: without the CI variables, under which pytest
    shows whole diffs instead of their start."""
    (folder / "test_solution.py").write_text(source, encoding="utf-8")
    env = {name: value for name, value in os.environ.items() if name not in ("CI", "BUILD_NUMBER")}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "--tb=short", "-p", "no:cacheprovider", "-k", keyword,
                           "test_solution.py"], cwd=folder, capture_output=True, text=True, env=env).stdout


def test_each_test_process_starts_ready_to_report_failures_and_its_reports_are_pytests_own(tmp_path):
    # A report of a failure compiled inspect's and tokenize's regular expressions, parsed the whole test file again,
    # and made inspect walk every loaded module to find which one the file is, in every test process: the server
    # compiles them once, one parse serves all of a process's reports, and inspect is told of the file.
    tests = ("import inspect, tokenize\n"
             "from _pytest._code import code\n\n"
             "FORMATTER = getattr(code, 'ExceptionInfoFormatter', None) or code.FormattedExcinfo\n\n"
             "def double(n):\n"
             "    return n + n\n\n"
             "def test_tokenize_is_compiled_before_any_failure():\n"
             "    assert tokenize._compile.cache_info().currsize >= 1\n\n"
             "def test_inspect_knows_this_file_before_any_failure():\n"
             "    assert inspect.modulesbyfile[inspect.getabsfile(double)] == __name__\n\n"
             "def test_a_failure():\n"
             "    assert double(1) == 3\n\n"
             "def test_a_failure_over_several_lines():\n"
             "    for n in (1, 2):\n"
             "        assert double(n) == (\n"
             "            n * 2 if n == 1 else 5\n"
             "        ), n\n"
             "    assert True\n\n"
             "def test_the_reports_share_one_cache_of_parsed_files():\n"
             "    assert FORMATTER().astcache is FORMATTER().astcache\n")
    result = harness.run(ADD, tests)
    assert result["failed"] == ["test_a_failure", "test_a_failure_over_several_lines"], result["output"]
    # The same file run by pytest itself, as the sandbox runs it (--tb=short), reports the same lines.
    own = pytest_itself(tmp_path, tests, "a_failure")
    for name in result["failed"]:
        report = result["output"].split(f"{name}:\n", 1)[1].split("\n\n", 1)[0]
        assert f"_ {name} _" in own and report in own, (report, own)


def test_no_terminal_reporter_answers_a_tests_hooks_and_explanations_are_pytests_own(tmp_path):
    # The server's output goes nowhere, so pytest's terminal reporter is off every test's path; its writer stays where
    # assertion explanations look for it, and they read as pytest's own.
    tests = ("HOOKS = ('pytest_runtest_logstart', 'pytest_runtest_logreport', 'pytest_report_teststatus')\n\n"
             "def test_no_terminal_reporter_on_the_path(request):\n"
             "    manager = request.config.pluginmanager\n"
             "    for hook in HOOKS:\n"
             "        names = [manager.get_name(impl.plugin) for impl in getattr(manager.hook, hook).get_hookimpls()]\n"
             "        assert 'terminalreporter' not in names, (hook, names)\n"
             "    assert request.config.get_terminal_writer() is not None\n\n"
             "def test_a_list_differs():\n"
             "    assert add([1, 2], [3]) == [1, 2, 4]\n\n"
             "def test_a_text_differs():\n"
             "    assert add('abc\\n', 'def') == 'abc\\nxyz'\n\n"
             "def test_a_dict_differs():\n"
             "    assert dict(a=add(1, 2), b=2) == {'a': 3, 'b': 3}\n")
    result = harness.run(ADD, tests)
    assert result["failed"] == ["test_a_list_differs", "test_a_text_differs", "test_a_dict_differs"], result["output"]
    own = pytest_itself(tmp_path, f"{ADD}\n{tests}", "differs")
    for name in result["failed"]:
        explanation = [line for line in result["output"].split(f"{name}:\n", 1)[1].split("\n\n", 1)[0].splitlines()
                       if line.startswith("E ")]
        assert len(explanation) >= 3 and "\n".join(explanation) in own, (explanation, own)


# The server's warm-up, in a process of its own: what one rehearsal teaches, where runs load a module it has not.
REHEARSAL = """
import json, os, sys
sys.path[:0] = [{sandbox!r}, {harness!r}]  # as the server loads them: by name
import pytest, server, tests_side
from runner import RECORDER, warm_test_ids

class LoadsAModule:
    def pytest_runtest_call(self, item):
        import colorsys  # noqa: F401 - a module no run loaded before: the rehearsal must name it

class Learns:
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        if {warm!r}:
            warm_test_ids()  # as the server does before its rehearsal
        loaded = tests_side.learn_from_a_rehearsal(session, os.path.join({folder!r}, "learn"))
        print(json.dumps({{"loaded": loaded, "pages": len(tests_side.WRITTEN), "here": "colorsys" in sys.modules,
                          "left": os.listdir({folder!r})}}), file=sys.__stderr__)
        os._exit(0)

pytest.main([*server.PYTEST_ARGS, "--rootdir", {folder!r}, "-c", os.devnull, {folder!r}],
            plugins=[Learns(), LoadsAModule(), RECORDER])
"""


def rehearse(folder, warm: bool) -> dict:
    sandbox = ROOT / "harness" / "sandbox"
    code = REHEARSAL.format(sandbox=str(sandbox), harness=str(sandbox.parent), folder=str(folder), warm=warm)
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_one_rehearsal_learns_the_pages_a_run_writes_and_names_the_modules_runs_load(tmp_path):
    learned = rehearse(tmp_path, warm=True)
    assert learned["loaded"] == ["colorsys"], learned  # for the server to import; learned in a fork, not here
    assert not learned["here"] and learned["pages"] > 0 and learned["left"] == [], learned


def test_the_server_warms_what_names_a_test_by_a_str_parameter(tmp_path):
    # Runs name test_x[2000] with a codec whose module each test process imported anew (1-3 ms a run).
    assert "encodings.unicode_escape" in rehearse(tmp_path, warm=False)["loaded"]
    assert "encodings.unicode_escape" not in rehearse(tmp_path, warm=True)["loaded"]
