"""How `make test` shares the tests out to the machine's cores: pytest-xdist, in units of work this plugin defines.

`make test` (pytest's `-n N --dist loadgroup`: see the Makefile) shares them out in these units: each test file is
one unit, run by one worker, so that a module's fixture (a corpus graded or attacked once, a JupyterLab started
once) is made once per run, not once per worker. The files whose every test is marked `machine` (they use what the
whole machine shares: see MACHINE) make one unit together, run by one worker, one file after the other. Units go out
longest first, so that no core waits at the end on one long file. The tests marked `alone` (they time something)
make one unit, run last, while no other test runs. A test marked `machine` in another file runs when no other test
so marked runs. Each worker has a TMPDIR of its own. Without xdist (a plain `pytest`), none of this applies.
"""

import fcntl
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

ALONE = "alone"  # the marker, and the name of the unit of the tests that carry it
# The marker of the tests that use what the whole machine shares, so that two of them never run at once: the hostile
# corpus (it judges what it finds in /tmp and among the machine's processes), attackers graded at the user level
# (they write in the machine's /tmp), and tests that change the mode of solutions/ or count the processes of the
# sandbox's users. Other tests run beside them. Whole files of them make one unit, also named so: spread over several
# workers, they would only wait for each other, each holding up a worker.
MACHINE = "machine"
# The longest units, longest first, as measured with three workers on two cores (seconds of wall time). A unit not
# listed here only waits its turn. The other files follow in the order pytest collects them, then the tests marked
# alone.
LONGEST = (
    MACHINE,  # 222 s: the hostile corpus five times, a class graded with attackers, a grader in a memory limit
    "tests/test_browser.py",  # 152 s, mostly waiting on JupyterLab and chromium
    "tests/test_notebooks.py",  # 69 s
    "tests/checks/autograder/test_gradescope.py",  # 52 s, one test machine
    "tests/lab/jupyter/test_jupyterhub.py",  # 40-60 s alone on a busy machine: a hub and six server starts
    "tests/lab/jupyter/test_kernels.py",  # 37 s
    "tests/checks/test_corpus.py",  # 36 s
    "tests/harness/sandbox/test_concurrency.py",  # 25 s
    "tests/lab/jupyter/test_launcher.py",  # 23 s
    "tests/checks/test_diagnosis.py",  # 22 s
    "tests/checks/test_engine.py",  # 20 s
    "tests/lab/jupyter/test_try_cell.py",  # 19 s
    "tests/harness/test_score.py",  # 14 s
    "tests/harness/sandbox/test_caller_errors.py",  # 14 s
    "tests/checks/report/test_class_page.py",  # 13 s, one test machine
    "tests/lab/commands/test_check.py",  # 10 s
    "tests/lab/commands/test_grade.py",  # 10 s
    "tests/harness/sandbox/test_caller.py",  # 7 s
)
RUN = pytest.StashKey[Path]()  # the controller's folder for this run: the units, the locks, the workers' TMPDIRs


def _file(item) -> str:
    return item.nodeid.split("::")[0]


def units(items) -> dict[str, str]:
    """The unit of work of each test, by node id: the tests marked alone, the files whose every test is marked
    machine, or the test's file."""
    marked: dict[str, bool] = {}
    for item in items:
        marked[_file(item)] = marked.get(_file(item), True) and bool(item.get_closest_marker(MACHINE))
    return {item.nodeid: ALONE if item.get_closest_marker(ALONE) else MACHINE if marked[_file(item)] else _file(item)
            for item in items}


def _run_folder(config) -> Path | None:
    """In a worker of a run shared out by units, the controller's folder for the run; else None."""
    found = getattr(config, "workerinput", {}).get("spec2code_run")
    return Path(found) if found else None


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist") and config.getvalue("dist") == "loadgroup":  # the controller
        config.stash[RUN] = Path(tempfile.mkdtemp(prefix="spec2code-tests-"))
        os.chmod(config.stash[RUN], 0o755)  # the users the tests make must reach the workers' folders in it
    folder = _run_folder(config)
    if folder is not None:  # a worker
        _own_temp(folder / config.workerinput["workerid"])


def _own_temp(folder: Path) -> None:
    """A worker's temporary files (an agent's folder while it is graded, say) go in a folder of its own, shared by
    all as /tmp is: a test that watches the machine's /tmp (the hostile corpus) then sees only what it did itself."""
    folder.mkdir()
    os.chmod(folder, 0o1777)
    os.environ["TMPDIR"] = str(folder)  # for the processes the tests start
    tempfile.tempdir = None  # and for this one, from its next temporary file on


def pytest_unconfigure(config):
    if RUN in config.stash:
        shutil.rmtree(config.stash[RUN], ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    if RUN in node.config.stash:
        node.workerinput["spec2code_run"] = str(node.config.stash[RUN])


def pytest_collection_modifyitems(config, items):
    folder = _run_folder(config)
    if folder is None:
        return

    unit = units(items)

    def rank(item):
        name = unit[item.nodeid]
        if name == ALONE:
            return len(LONGEST) + 1
        return LONGEST.index(name) if name in LONGEST else len(LONGEST)

    items.sort(key=rank)  # stable: within a unit, and among the units not listed, pytest's order is kept
    # Every worker collects the same tests; the controller reads one worker's units (see pytest_xdist_make_scheduler).
    mine = folder / f"units-{config.workerinput['workerid']}.json"
    mine.with_suffix(".tmp").write_text(json.dumps({item.nodeid: unit[item.nodeid] for item in items}))
    mine.with_suffix(".tmp").replace(mine)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if RUN not in config.stash:
        return None
    from xdist.scheduler import LoadScopeScheduling

    folder = config.stash[RUN]
    config.option.loadscopereorder = False  # the order is ours (longest first), not by the number of tests

    class ByUnit(LoadScopeScheduling):
        """xdist's scheduling by scope, with this plugin's units as the scopes. (xdist's own `loadgroup` reads groups
        from node ids it rewrites, which pytest 9 no longer lets it do.)"""

        units = None

        def _split_scope(self, nodeid):
            if self.units is None:  # asked once every worker has collected, and so written its units
                self.units = json.loads(sorted(folder.glob("units-*.json"))[0].read_text())
            return self.units.get(nodeid, nodeid)

    return ByUnit(config, log)


class _Turns:
    """Who may run now, between the workers of one run: any number of tests at once, or the tests marked alone.

    Lock files that every worker opens. A test passes the door, then holds the room shared while it runs. The
    worker with the tests marked alone holds the door, so that no other test starts, and waits for the room to
    itself. A test marked machine also holds the machine, once in the room and until it leaves. A lock goes with
    the worker that held it, should it die."""

    def __init__(self, folder: Path):
        self.door = open(folder / "door.lock", "a")
        self.room = open(folder / "room.lock", "a")
        self.machine = open(folder / "machine.lock", "a")
        self.alone = False

    def enter(self, alone: bool) -> None:
        if alone and self.alone:
            return  # still the machine's, from the test before
        fcntl.flock(self.door, fcntl.LOCK_EX)
        fcntl.flock(self.room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(self.door, fcntl.LOCK_UN)
        self.alone = alone

    def leave(self, next_alone: bool) -> None:
        if self.alone and next_alone:
            return  # keep the machine for the next test marked alone
        fcntl.flock(self.room, fcntl.LOCK_UN)
        if self.alone:
            fcntl.flock(self.door, fcntl.LOCK_UN)
        self.alone = False


TURNS = pytest.StashKey[_Turns]()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)  # outside pytest-timeout: waiting for a turn is not the test's time
def pytest_runtest_protocol(item, nextitem):
    folder = _run_folder(item.config)
    if folder is None:
        yield
        return
    if TURNS not in item.config.stash:
        item.config.stash[TURNS] = _Turns(folder)
    turns = item.config.stash[TURNS]
    turns.enter(bool(item.get_closest_marker(ALONE)))
    machine = bool(item.get_closest_marker(MACHINE))
    if machine:
        fcntl.flock(turns.machine, fcntl.LOCK_EX)
    try:
        yield
    finally:
        if machine:
            fcntl.flock(turns.machine, fcntl.LOCK_UN)
        turns.leave(bool(nextitem is not None and nextitem.get_closest_marker(ALONE)))
