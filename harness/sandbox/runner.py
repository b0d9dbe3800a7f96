"""Running one test file with pytest inside an already warm process: collect it, run it, record each outcome.

Loaded by the sandbox server by name (never through the `harness` package, which holds the held-out tests).
"""

from __future__ import annotations

import base64
import inspect
import io
import json
import marshal
import os
import sys
import tokenize
import types
from pathlib import Path

import pytest
from _pytest.assertion.rewrite import rewrite_asserts
from syntax import parse
from text import cut

MAX_DETAILS = 2000  # characters kept of one failure report (a test phase's, a load error's): enough for a model


class Recorder:
    """pytest plugin, registered once in the server: keeps each test's outcome for the report."""

    def __init__(self):
        self.reset(None)

    def reset(self, emit):
        self.emit = emit
        self.outcomes, self.details, self.collect_errors = {}, {}, []

    def pytest_collectreport(self, report):
        if self.emit and report.failed:
            self.collect_errors.append(str(report.longrepr))

    def pytest_runtest_logreport(self, report):
        if not self.emit:
            return
        prior = self.outcomes.get(report.nodeid, "passed")
        if report.failed or report.skipped:
            outcome = "failed"
            text = report.longreprtext if report.failed else f"skipped: {report.longrepr}"
            self.details[report.nodeid] = self.details.get(report.nodeid, "") + cut(text, MAX_DETAILS)
        else:
            outcome = "passed" if report.when != "setup" else prior
        self.outcomes[report.nodeid] = "failed" if prior == "failed" else outcome


RECORDER = Recorder()


def compile_tests(source):
    """A test source with its asserts rewritten as pytest's import would, compiled: the text `preload_test_module`
    takes (marshalled, base64). None where it does not compile: pytest then imports the file and reports why."""
    try:
        tree = parse(source, "test_solution.py")
        rewrite_asserts(tree, source.encode(), "test_solution.py", None)
        code = compile(tree, "test_solution.py", "exec", dont_inherit=True)
        return base64.b64encode(marshal.dumps(code)).decode()
    except Exception:  # noqa: BLE001 - a syntax error, too deep a nesting: pytest's own import reports it
        return None


def preload_test_module(compiled, path):
    """Put the test source's compiled code (see `compile_tests`: this run's, or an earlier run's that the caller kept)
    in place as the test module, so pytest need not rewrite it. If it fails to load, pytest imports the file itself
    and reports why."""

    def with_filename(code):
        consts = tuple(with_filename(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
        return code.replace(co_filename=path, co_consts=consts)

    name = os.path.splitext(os.path.basename(path))[0]
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    try:
        exec(with_filename(marshal.loads(base64.b64decode(compiled))), module.__dict__)
    except BaseException:  # noqa: BLE001
        del sys.modules[name]


def collect_file(session, path):
    """Collect the tests of one file, without pytest walking the folders around it."""
    try:
        module = pytest.Module.from_parent(session, path=Path(path))
        items = [item for item in session.genitems(module) if isinstance(item, pytest.Item)]
    except BaseException as e:  # noqa: BLE001 - a test file may raise anything at import
        RECORDER.collect_errors.append(f"{type(e).__name__}: {_safe_str(e)}")
        return []
    _known_to_inspect(path)
    return items


def _known_to_inspect(path):
    """Tell `inspect` which module the test file is, as warm_module_lookup told it of the server's modules: a
    failure report asks, and a file it did not know made it walk every loaded module, copying some 550 of the
    server's pages into the test process (2-3 ms of a failing run)."""
    module = sys.modules.get(os.path.splitext(os.path.basename(path))[0])
    if isinstance(module, types.ModuleType) and getattr(module, "__file__", None) == path:
        file = inspect.getabsfile(module)
        inspect.modulesbyfile[file] = inspect.modulesbyfile[os.path.realpath(file)] = module.__name__


def run_items(items, after=lambda item: None):
    """Run the tests through pytest's own protocol (setup, call, teardown, fixtures), calling `after` for each."""
    for i, item in enumerate(items):
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=items[i + 1] if i + 1 < len(items) else None)
        after(item)


def typical_run(session, folder):
    """A run as the sandbox's test process does one, of tests like the lab's visible tests: the module put in place
    already compiled, collected, run, each outcome emitted as a record."""
    os.makedirs(folder)
    path = os.path.join(folder, "test_solution.py")
    with open(path, "w") as f:
        f.write(TYPICAL_TESTS)
    preload_test_module(base64.b64encode(marshal.dumps(compile(TYPICAL_TESTS, path, "exec"))).decode(), path)
    RECORDER.reset(lambda **event: json.dumps(event))
    run_items(collect_file(session, path), after=lambda item: json.dumps({"name": item.name}))
    RECORDER.reset(None)
    sys.modules.pop("test_solution", None)


def warm_pytest(session, folder):
    """Collect and run a throwaway test file here, so the pages a run touches are already ours."""
    os.makedirs(folder)
    path = os.path.join(folder, "test_warmup.py")
    with open(path, "w") as f:
        f.write(WARM_UP_TESTS)
    run_items(collect_file(session, path))
    RECORDER.reset(None)
    sys.modules.pop("test_warmup", None)


def warm_forks(config):
    """In the server, once pytest is configured: do here what every fork would otherwise do for itself."""
    quiet_terminal(config)
    warm_module_lookup()
    prepare_failure_reports()
    warm_test_ids()


def warm_module_lookup():
    """Fill the table `inspect` keeps of which file holds which module, so that forks of this process start with it.

    pytest reads it to show a failing test's source (inspect.getmodule), and fills it on first use by walking every
    loaded module's path with a stat call per folder: about 3,000 calls and 15 ms in each fresh test process.
    A file no module has makes it walk every time, over the modules loaded since (inspect skips those it has seen).
    Best effort: a module whose file cannot be looked at only leaves the table as pytest would have found it."""
    try:
        inspect.getmodule(warm_module_lookup.__code__, os.devnull)
    except Exception:  # noqa: BLE001 - an installed module with an odd __file__ must never stop the server
        pass


def warm_test_ids():
    """Look up the codec pytest escapes a `str` parameter with when it names a parametrized test (test_x[2000]).

    Its first use imports the codec's module: some 2-3 ms in each test process of runs like the lab's visible tests,
    which parametrize '2000'. Looked up once here, every fork of this process starts with it."""
    "".encode("unicode_escape")


class _QuietTerminal:
    """What stands for pytest's terminal reporter in the server: its writer, and no hooks."""

    def __init__(self, writer):
        self._tw = writer


def quiet_terminal(config):
    """Take pytest's terminal reporter off every test's path, leaving its writer where pytest looks for it.

    The server's output goes nowhere, yet the reporter answered each test's start and each of its three phases (asking
    every plugin for a status letter each time): about 1 ms of CPU and 70 of the pages a leap-year run copies. The
    writer stays for the assertion explanations, which ask it for colours (none, with no terminal)."""
    manager = config.pluginmanager
    reporter = manager.get_plugin("terminalreporter")
    if reporter is not None and hasattr(reporter, "_tw"):
        manager.unregister(reporter)
        manager.register(_QuietTerminal(reporter._tw), "terminalreporter")


def prepare_failure_reports():
    """Make the reports of failing tests cheaper in every fork of this process, leaving their text as it was.

    pytest parses a test file again for each failure it reports (its cache of parsed files lives for one report):
    here one cache serves every report of the process, which runs one file. And a report compiles two regular
    expressions on first use (inspect's and tokenize's): one failure reported here compiles them for every fork.
    A run of the leap-year tests with 6 failures took 6.4 ms less CPU (26.9 -> 20.5 ms). Best effort: a pytest
    whose formatter (`FormattedExcinfo` before pytest 9) has no such cache is only warmed."""
    try:
        raise AssertionError("a failure reported once, in the server")
    except AssertionError as e:
        try:
            pytest.ExceptionInfo.from_exception(e).getrepr(style="short")
            for _token in tokenize.generate_tokens(io.StringIO("x = 1\n").readline):  # for a statement of lines
                pass
        except Exception:  # noqa: BLE001 - warming is best effort
            pass
    from _pytest._code import code

    for name in ("ExceptionInfoFormatter", "FormattedExcinfo"):
        formatter = getattr(code, name, None)
        if "astcache" in getattr(formatter, "__dataclass_fields__", {}):
            shared, init = {}, formatter.__init__

            def __init__(self, *args, **kwargs):
                init(self, *args, **kwargs)
                self.astcache = shared

            formatter.__init__ = __init__
            return


def rehearse(work, measure):
    """Call `work()` (a throwaway run) in a fork of this process, and return what `measure()` finds in the fork
    afterwards, as a JSON value (None if the fork could not say), so that this process learns from a run without
    having run one."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            work()
            os.write(write, json.dumps(measure()).encode())
        finally:
            os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    try:
        return json.loads(data)
    except ValueError:
        return None


def first_line_of_collect_error(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("E "):
            return "the tests could not be loaded: " + line[1:].strip()[:300]
    return "the tests could not be loaded: " + (lines[-1][:300] if lines else "unknown error")


def _safe_str(exc):
    try:
        return cut(str(exc), MAX_DETAILS)
    except BaseException:  # noqa: BLE001
        return "(message could not be shown)"


WARM_UP_TESTS = '''
import pytest
def f(x): return x
@pytest.fixture
def value(): return 3
@pytest.mark.parametrize("n", [1, 2])
def test_param(n, value): assert n < value
def test_raises():
    with pytest.raises(ValueError, match="x"): raise ValueError("x")
def test_approx(): assert 0.1 + 0.2 == pytest.approx(0.3)
def test_fails(): assert f([1, "a"]) == [1, "b"], "message"
def test_fails_str(): assert f("abc\\ndef") == "abd\\ndef"
class TestClass:
    def test_in_class(self): assert f({"a": 1}) == {"a": 2}
'''
TYPICAL_TESTS = '''
import pytest
def f(x):
    if x is None or isinstance(x, str):
        raise ValueError(x)
    return x
def test_values():
    for n in (1, 2, 3):
        assert f(n) == n, n
def test_more_values():
    assert f(2.5) == 2.5
@pytest.mark.parametrize("bad", [None, "2000"])
def test_rejects(bad):
    with pytest.raises(ValueError):
        f(bad)
'''
