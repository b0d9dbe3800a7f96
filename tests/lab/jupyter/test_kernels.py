"""The lab's kernel manager keeps the kernels used last: which ones it stops, and that a real server does so, also
when a reload opens every notebook at once."""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import pytest

from lab.jupyter import install, kernels
from tests.lab.jupyter.test_launcher import execute_over_websocket, start_lab, stop_lab
from tests.paths import ROOT
from tests.shipped import stubs_file

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)  # the server's times are UTC-aware
NOTEBOOKS = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "notebooks").glob("*.ipynb"))
SETTLED = kernels.NEW_FOR + 60  # seconds for the lab to stop what it stops, on a slow, busy machine


def used(minutes_ago, state="idle"):
    return (T0 - timedelta(minutes=minutes_ago), state)


def test_the_least_recently_used_kernels_are_stopped_until_at_most_the_limit_remain():
    running = {"step1": used(30), "step2": used(20), "start": used(40), "step3": used(0)}
    assert kernels.least_recently_used(running, most=2) == ["start", "step1"]
    assert kernels.least_recently_used(running, most=4) == []


def test_a_busy_kernel_is_never_stopped_even_if_that_leaves_more_than_the_limit():
    running = {"step1": used(30, "busy"), "step2": used(20), "step3": used(0)}
    assert kernels.least_recently_used(running, most=1) == ["step2"]


def test_a_kernel_that_never_said_when_it_was_last_used_counts_as_the_least_recent():
    running = {"silent": (kernels.NEVER, "idle"), "step2": used(20), "step3": used(0)}
    assert kernels.least_recently_used(running, most=2) == ["silent"]


def test_kernels_just_started_are_neither_stopped_nor_counted():
    """A reload starts a kernel for every open notebook at once: none of them is stopped while it is new, nor does
    it push out a kernel that was in use."""
    running = {"new1": used(99), "new2": used(99), "in use": used(0), "before": used(5), "oldest": used(50)}
    assert kernels.least_recently_used(running, most=2, new=frozenset({"new1", "new2"})) == ["oldest"]
    assert kernels.least_recently_used(running, most=2) == ["new2", "new1", "oldest"]


def test_an_unset_last_activity_reads_as_never_instead_of_raising():
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager
    from traitlets import TraitError

    starting = ServerKernelManager()
    with pytest.raises(TraitError):
        starting.last_activity  # what the server's own start leaves unset for a moment
    assert kernels.trait(starting, "last_activity", kernels.NEVER) is kernels.NEVER
    assert kernels.trait(starting, "execution_state", "") == ""


@pytest.mark.slow
def test_a_real_kernel_manager_stops_the_least_recently_used_kernel_when_a_cell_runs(tmp_path):
    async def run_a_cell(manager, kernel_id):
        client = manager.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            await client.execute_interactive("1 + 1", timeout=60)
        finally:
            client.stop_channels()

    async def until_fewer_than(manager, count):
        deadline = time.monotonic() + 60
        while len(manager.list_kernel_ids()) >= count and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        return set(manager.list_kernel_ids())

    async def start_three():
        manager = kernels.RecentKernels(root_dir=str(tmp_path), most_kernels=2, new_for=600)
        try:
            started = [await manager.start_kernel(kernel_name="python3") for _ in range(3)]
            after_start = set(manager.list_kernel_ids())
            for kernel_id in (started[2], started[1]):  # the first is new, not used: it stays
                await run_a_cell(manager, kernel_id)
            await asyncio.sleep(2)
            while_new = set(manager.list_kernel_ids())
            manager.new_for = 0  # as if it had been open a while and never used
            await run_a_cell(manager, started[2])
            after_run = await until_fewer_than(manager, 3)
            again = await manager.start_kernel(kernel_id=started[2], kernel_name="python3")  # reused, not started
            return started, after_start, while_new, after_run, again, set(manager.list_kernel_ids())
        finally:
            await manager.shutdown_all(now=True)

    (first, second, third), after_start, while_new, after_run, again, after = asyncio.run(start_three())
    assert after_start == {first, second, third}, "starting a kernel stopped another"
    assert while_new == {first, second, third}, "a kernel just started was stopped"
    assert after_run == {second, third}, "the first kernel, the least recently used, was not the one stopped"
    assert again == third and after == {second, third}


# --- a reload, through the real server's REST API -------------------------------------------------------------------


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lab as `spec2code lab` opens it, on the stubs (a student's own lab/agent.py plays no part)."""
    stubs = stubs_file(tmp_path_factory.mktemp("stubs"))
    running = start_lab(tmp_path_factory.mktemp("runtime"), {"SPEC2CODE_AGENT": str(stubs)})
    yield running
    stop_lab(running.process)


def reload(lab, paths):
    """What a reload sends: a session for every notebook open, all at once, while JupyterLab polls the server.

    Returns the answers (status, body) in the order of `paths`, and the status of every poll made meanwhile.
    """
    ready, done, polled = threading.Barrier(len(paths) + 1), threading.Event(), []

    def open_session(path):
        ready.wait()
        return lab.request("POST", "/api/sessions", {"path": path, "type": "notebook", "name": path.split("/")[-1],
                                                     "kernel": {"name": install.KERNEL_NAME}})

    def poll():
        ready.wait()
        while not done.is_set():
            polled.extend(lab.request("GET", path)[0] for path in ("/api/kernels", "/api/sessions"))
            time.sleep(0.1)

    with ThreadPoolExecutor(len(paths) + 1) as pool:
        poller = pool.submit(poll)
        answers = list(pool.map(open_session, paths))
        done.set()
        poller.result()
    return answers, polled


def sessions_and_kernels(lab):
    """{notebook: its session's kernel} and the kernels running, as JupyterLab reads them."""
    _, sessions = lab.request("GET", "/api/sessions")
    _, running = lab.request("GET", "/api/kernels")
    return {s["path"]: s["kernel"]["id"] for s in sessions}, {k["id"] for k in running}


@pytest.mark.slow
def test_a_reload_opening_every_notebook_at_once_gets_every_session_and_keeps_the_one_in_use(lab):
    assert len(NOTEBOOKS) == 7
    for reloads, looked_at in enumerate((NOTEBOOKS[-1], NOTEBOOKS[1])):  # a reload, a cell run, and the same again
        answers, polled = reload(lab, NOTEBOOKS)
        assert [status for status, _ in answers] == [201] * len(NOTEBOOKS), answers
        assert set(polled) == {200}, "JupyterLab's polls of /api/kernels and /api/sessions failed meanwhile"
        if not reloads:
            time.sleep(kernels.NEW_FOR + 2)  # nothing says yet which notebook is on screen: all stay
        sessions, running = sessions_and_kernels(lab)
        assert sorted(sessions) == NOTEBOOKS and set(sessions.values()) == running, (sessions, running)
        assert {answer["kernel"]["id"] for _, answer in answers} == running

        in_use = sessions[looked_at]
        assert asyncio.run(execute_over_websocket(lab, in_use, "6 * 7"))["text/plain"] == "42"
        deadline = time.monotonic() + SETTLED
        # Sessions and kernels are read one after the other: a stop that ends between the two reads shows a session
        # whose kernel has just gone. Settled is when they agree again, as JupyterLab's next poll finds them.
        while (len(running) > kernels.MOST_KERNELS or set(sessions.values()) != running) \
                and time.monotonic() < deadline:
            time.sleep(0.5)
            sessions, running = sessions_and_kernels(lab)
        assert len(running) <= kernels.MOST_KERNELS, f"{len(running)} kernels still run after reload {reloads + 1}"
        assert sessions[looked_at] == in_use and in_use in running, "the notebook in use lost its kernel"
        assert set(sessions.values()) == running, "a session points at a stopped kernel, or a kernel has none"
