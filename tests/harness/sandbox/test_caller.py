"""harness.run: the result contract, pytest features, and each kind of error."""

import base64
import json
import marshal
import subprocess
import sys
import time

import pytest

import harness
from harness.tasks import HOLDOUT_TESTS, LEAP_YEAR
from tests.paths import ROOT

REFERENCE_SOLUTION, BUGGY_SOLUTIONS = LEAP_YEAR.reference, LEAP_YEAR.buggy

ADD = "def add(a, b):\n    return a + b\n"


def green(result):
    return result["error"] is None and not result["failed"] and result["passed"] > 0


def test_the_reference_passes_every_held_out_test():
    result = harness.run(REFERENCE_SOLUTION, HOLDOUT_TESTS)
    assert green(result), result
    assert result["total"] == result["passed"] == 9  # 8 named and 1 of inputs drawn per run
    assert set(result) >= {"passed", "failed", "total", "error", "output", "isolation"}


def test_the_century_bug_fails_by_name_in_definition_order():
    result = harness.run(BUGGY_SOLUTIONS["forgets_centuries"], HOLDOUT_TESTS)
    assert result["error"] is None
    assert result["failed"] == ["test_centuries_are_common_years", "test_far_future_years",
                                "test_inputs_drawn_for_this_run_agree_with_the_spec"]
    assert result["passed"] == 6 and result["total"] == 9


def test_failure_details_show_the_failing_call_and_its_value():
    result = harness.run(BUGGY_SOLUTIONS["forgets_centuries"], HOLDOUT_TESTS)
    assert "where True = is_leap_year(1700)" in result["output"]
    assert "test_solution.py:" in result["output"]
    assert "/tmp" not in result["output"]


def test_pytest_features_work_in_tests():
    tests = """
import pytest
from solution import add

@pytest.fixture
def two():
    return 2

@pytest.mark.parametrize("a, b, total", [(1, 2, 3), (2, 2, 4)])
def test_param(a, b, total):
    assert add(a, b) == total

def test_fixture(two):
    assert add(two, two) == 4

def test_approx():
    assert add(0.1, 0.2) == pytest.approx(0.3)

def test_raises():
    with pytest.raises(TypeError):
        add(1, "x")

class TestGrouped:
    def test_in_a_class(self):
        assert add("a", "b") == "ab"
"""
    result = harness.run(ADD, tests)
    assert green(result), result
    assert result["total"] == 6


def test_parametrized_failures_are_named_with_their_ids():
    tests = "import pytest\n@pytest.mark.parametrize('n', [1, 2])\ndef test_n(n):\n    assert add(n, 0) == 1\n"
    result = harness.run(ADD, tests)
    assert result["failed"] == ["test_n[2]"]


def test_exceptions_keep_their_builtin_type_and_message():
    solution = "class LeapError(ValueError):\n    pass\ndef f(x):\n    raise LeapError('bad year ' + repr(x))\n"
    tests = "import pytest\ndef test_it():\n    with pytest.raises(ValueError, match='bad year 3'):\n        f(3)\n"
    assert green(harness.run(solution, tests))


def test_values_cross_as_plain_data():
    solution = "def f():\n    return [1, (2, 3.5), {'a': {4}}, None, True, b'x', 'é', 10**30]\n"
    tests = "def test_it():\n    assert f() == [1, (2, 3.5), {'a': {4}}, None, True, b'x', 'é', 10**30]\n"
    assert green(harness.run(solution, tests))


def test_a_value_that_is_not_plain_data_fails_the_test():
    solution = "class Anything:\n    def __eq__(self, other):\n        return True\ndef f():\n    return Anything()\n"
    tests = "import pytest\ndef test_it():\n    assert f() == 3\ndef test_raises():\n    with pytest.raises(TypeError):\n        f()\n"
    result = harness.run(solution, tests)
    assert result["failed"] == ["test_it", "test_raises"]  # the wall's refusal is no TypeError of the solution's
    assert "cannot carry back: an Anything object cannot cross the wall" in result["output"]


def test_a_syntax_error_fails_every_test_and_says_where():
    result = harness.run("def is_leap_year(year)\n    return True\n", HOLDOUT_TESTS)
    assert result["error"].startswith("syntax error: line 1")
    assert result["passed"] == 0 and len(result["failed"]) == result["total"] == 9


def test_an_exception_at_import_is_an_import_error():
    result = harness.run("x = 1 / 0\n", HOLDOUT_TESTS)
    assert result["error"].startswith("import error: ZeroDivisionError")
    assert "line 1" in result["error"]
    assert len(result["failed"]) == 9


@pytest.mark.parametrize("exit_call", ["import sys\nsys.exit(0)", "import os\nos._exit(0)", "raise SystemExit(0)"])
def test_exiting_at_import_is_never_a_pass(exit_call):
    result = harness.run(exit_call + "\n", HOLDOUT_TESTS)
    assert not green(result)
    assert result["passed"] == 0 and result["error"]


def test_exiting_inside_the_function_is_a_crash():
    result = harness.run("import os\ndef is_leap_year(y):\n    os._exit(0)\n", HOLDOUT_TESTS)
    assert result["error"].startswith("crash:")
    assert result["passed"] == 0


def test_a_run_with_no_tests_is_an_error():
    result = harness.run(ADD, "def helper():\n    pass\n")
    assert result["error"].startswith("no tests")
    assert result["total"] == 0 and not green(result)


@pytest.mark.slow
def test_broken_tests_are_a_test_error():
    result = harness.run(ADD, "def test_it(:\n    pass\n")
    assert result["error"].startswith("test error")


@pytest.mark.slow
@pytest.mark.alone  # a margin of two seconds over the timeout
def test_a_solution_that_loops_forever_times_out():
    started = time.monotonic()
    result = harness.run("def add(a, b):\n    while True:\n        pass\n", "def test_it():\n    assert add(1, 2) == 3\n", timeout=2)
    assert time.monotonic() - started < 4
    assert result["error"].startswith("timeout")
    assert result["failed"] == ["test_it"]


def test_a_memory_bomb_is_a_memory_error():
    result = harness.run("def add(a, b):\n    return bytearray(10**11)\n", "def test_it():\n    assert add(1, 2) == 3\n")
    assert result["error"].startswith("memory"), result
    assert result["failed"] == ["test_it"]


def test_a_segfault_is_a_crash():
    solution = "import ctypes\ndef add(a, b):\n    return ctypes.string_at(0)\n"
    result = harness.run(solution, "def test_it():\n    assert add(1, 2) == 3\n")
    assert result["error"].startswith("crash") and "SIGSEGV" in result["error"]


@pytest.mark.slow
def test_output_floods_are_cut_and_the_result_stays_small():
    solution = "import sys\ndef add(a, b):\n    for _ in range(10**5):\n        print('x' * 100)\n        print('y' * 100, file=sys.stderr)\n    return a + b\n"
    result = harness.run(solution, "def test_it():\n    assert add(1, 2) == 4\n")
    assert result["failed"] == ["test_it"]
    assert len(json.dumps(result)) < 20_000
    assert "cut" in result["output"]


def test_the_callers_secrets_do_not_reach_the_solution(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-caller-secret")
    solution = "import os\ndef f():\n    return dict(os.environ)\n"
    result = harness.run(solution, "def test_it():\n    assert f() == {}\n")
    assert "sk-caller-secret" not in json.dumps(result)


def test_isolation_is_reported():
    assert harness.run(ADD, "def test_it():\n    assert add(1, 1) == 2\n")["isolation"] in ("namespaces", "process")


def test_bad_arguments_are_a_clear_type_error():
    with pytest.raises(TypeError, match="two strings"):
        harness.run(None, "def test_it(): pass")


def _alive_with(marker):
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


@pytest.mark.slow
@pytest.mark.parametrize("level", ["auto", "process"])
def test_every_isolation_level_runs_tests_and_leaves_no_process_behind(monkeypatch, level):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", level)
    marker = f"spec2code-daemon-{level}"
    solution = (
        "import os\n"
        "def add(a, b):\n"
        "    if os.fork() == 0:\n"
        "        os.setsid()\n"
        f"        os.execvp('sleep', ['sleep', '300', '{marker}'])\n"
        "    return a + b\n"
    )
    result = harness.run(solution, "def test_it():\n    assert add(1, 2) == 3\n")
    assert green(result), result
    assert result["isolation"] == ("process" if level == "process" else harness.sandbox.isolation_level())
    assert _alive_with(marker) == []


@pytest.mark.slow
def test_tests_that_loop_or_hog_memory_are_stopped_too():
    looping = harness.run(ADD, "def test_it():\n    while True:\n        pass\n", timeout=3)
    assert looping["error"].startswith("timeout") and looping["passed"] == 0
    hog = harness.run(ADD, "def test_it():\n    x = bytearray(10**11)\n")
    assert hog["failed"] == ["test_it"] and "MemoryError" in hog["output"]


@pytest.mark.slow
def test_runs_from_thread_pools_keep_working_after_the_pool_is_gone():
    from concurrent.futures import ThreadPoolExecutor

    harness.sandbox.caller._SERVER.stop()  # the next run starts the server from a pool thread
    solutions = [REFERENCE_SOLUTION, BUGGY_SOLUTIONS["forgets_centuries"]] * 3
    for _ in range(2):
        with ThreadPoolExecutor(3) as pool:
            results = list(pool.map(lambda s: harness.run(s, HOLDOUT_TESTS), solutions))
        assert [r["error"] for r in results] == [None] * 6
        assert [r["passed"] for r in results] == [9, 6] * 3


@pytest.mark.slow
def test_while_stopped_a_run_under_way_ends_at_once_and_no_run_nor_server_starts():
    """As an interrupted grading stops: the run its thread waits on ends as a crash, and the runs its checks ask for
    next, while the thread finishes, are refused at once instead of starting a new server (SIGTERM waited on them)."""
    from concurrent.futures import ThreadPoolExecutor

    caller = harness.sandbox.caller
    hanging = "import time\n\ndef add(a, b):\n    time.sleep(60)\n"
    with ThreadPoolExecutor(1) as pool:
        under_way = pool.submit(harness.run, hanging, "def test_it():\n    assert add(1, 2) == 3\n", timeout=60)
        while caller._SERVER.proc is None or not under_way.running():
            time.sleep(0.01)
        time.sleep(0.5)  # its test process has the run by now
        started = time.monotonic()
        with harness.sandbox.stopped():
            ended = under_way.result(timeout=30)
            took = time.monotonic() - started
            refused = [harness.run(ADD, "def test_it():\n    assert add(1, 2) == 3\n") for _ in range(3)]
            assert caller._SERVER.proc is None  # no server started for them
    assert ended["error"].startswith("crash") and ended["passed"] == 0, ended
    assert took < 10, f"the run under way took {took:.1f} s to end"
    assert [r["error"] for r in refused] == ["crash: the sandbox was stopped (the grading was interrupted)"] * 3
    assert [r["failed"] for r in refused] == [["test_it"]] * 3
    assert green(harness.run(ADD, "def test_it():\n    assert add(1, 2) == 3\n"))  # once the block has ended


def test_a_huge_exception_message_is_cut_and_says_so():
    solution = "def add(a, b):\n    raise ValueError('boom ' * 2_000_000)\n"
    result = harness.run(solution, "def test_it():\n    assert add(1, 2) == 3\n")
    assert "more characters cut" in result["output"]
    assert len(result["output"]) < 10_000


@pytest.mark.slow
@pytest.mark.parametrize("level", ["auto", "process"])
def test_the_isolation_summary_says_what_could_not_be_enforced(monkeypatch, level):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", level)
    summary = harness.sandbox.isolation_summary()
    if harness.sandbox.isolation_level() == "namespaces":
        assert summary.startswith("namespaces")
    else:
        assert summary.startswith("process only:") and "file system" in summary


TWO_TESTS = "def test_right():\n    assert add(1, 2) == 3\n\n\ndef test_wrong():\n    assert add(2, 2) == 5\n"
COMPILED_ONCE = """
import json, sys
import harness
from harness.sandbox import caller

firsts = []
exchange = caller._exchange
def first_record(*args):
    events, timed_out = exchange(*args)
    firsts.append(events[0].get("event"))
    return events, timed_out
caller._exchange = first_record
results = [harness.run({add!r}, {tests!r}) for _ in range(2)]
print(json.dumps({{"firsts": firsts, "results": results, "pytest": sorted(m for m in sys.modules if "pytest" in m)}}))
"""


def test_a_source_is_compiled_by_its_first_run_and_the_caller_imports_none_of_pytest():
    """Asserts are rewritten (so a failure shows the call and its value) by the run's own test process, which sends
    the code back as its first record; the caller keeps it, and the next run of the same tests loads it ready."""
    done = subprocess.run([sys.executable, "-c", COMPILED_ONCE.format(add=ADD, tests=TWO_TESTS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["firsts"] == ["compiled", "collected"], seen["firsts"]  # the second run was sent the code
    for result in seen["results"]:
        assert result["passed"] == 1 and result["failed"] == ["test_wrong"], result
        assert "where 4 = add(2, 2)" in result["output"], result["output"]
    assert seen["pytest"] == [], seen["pytest"]


FORGES_THE_COMPILED_CODE = """
import base64, json, marshal, os, stat

FORGED = compile("def test_forged():\\n    pass\\n", "test_solution.py", "exec")
RECORD = ("\\n" + json.dumps({"event": "compiled", "code": base64.b64encode(marshal.dumps(FORGED)).decode()})
          + "\\n").encode()
for fd in range(3, 1024):  # every pipe this process may write to: the run's records go down one of them
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            os.write(fd, RECORD)
    except OSError:
        pass


def test_real():
    assert add(1, 2) == 3
"""


def test_tests_that_forge_their_compiled_code_do_not_change_what_the_next_runs_load():
    """Test code runs only after the run has sent its compiled code (always the first record): a record it forges
    comes later, and the caller takes none but the first, so the next runs of these tests run them as written."""
    from harness.sandbox import caller

    for _ in range(3):
        result = harness.run(ADD, FORGES_THE_COMPILED_CODE)
        assert result["passed"] == result["total"] == 1 and result["error"] is None, result
    kept = caller._COMPILED.get(FORGES_THE_COMPILED_CODE)
    assert kept and "test_forged" not in marshal.loads(base64.b64decode(kept)).co_names
