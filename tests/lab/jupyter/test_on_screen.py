"""Run means save: a cell waits for the agent.py tab's save to land, or says in its output which file it used."""

import queue
import threading
import time

import pytest
from jupyter_client.manager import start_new_kernel

from lab.jupyter import on_screen
from lab.jupyter import launcher as launch
from tests.helpers import write_agent

STUB = 'def extract_code(reply):\n    raise NotImplementedError("step 1")\n'
WRITTEN = "def extract_code(reply):\n    return reply.strip()  # typed in the tab\n"


def later(seconds, fn):
    timer = threading.Timer(seconds, fn)
    timer.start()
    return timer


def test_a_cell_run_without_unsaved_tabs_waits_for_nothing(tmp_path):
    agent = write_agent(tmp_path, STUB)
    assert on_screen.settle(agent, tabs=[]) == ""
    assert on_screen.settle(agent, tabs=[{"path": "other/agent.py", "text": WRITTEN, "saving": True}]) == ""
    # The tab's text is already the file's: the save has landed.
    assert on_screen.settle(agent, tabs=[{"path": "agent.py", "text": STUB, "saving": True}]) == ""


def test_a_tab_is_matched_by_its_path_below_the_servers_folder(tmp_path):
    agent = write_agent(tmp_path, STUB)
    mine = {"path": f"{tmp_path.name}/agent.py", "text": "x"}
    assert on_screen.the_tab_of(agent, [{"path": "agent.py.bak", "text": "y"}, mine]) is mine
    assert on_screen.the_tab_of(agent, [{"path": "agent.py", "text": "another folder's"}, mine]) is mine
    assert on_screen.the_tab_of(agent, [{"path": "elsewhere/agent.py", "text": "y"}]) is None


def test_the_cell_waits_for_the_save_and_uses_the_saved_file(tmp_path):
    agent = write_agent(tmp_path, STUB)
    later(0.3, lambda: agent.write_text(WRITTEN))
    started = time.monotonic()
    note = on_screen.settle(agent, tabs=[{"path": "agent.py", "text": WRITTEN, "saving": True}], patience=10)
    assert note == "" and 0.25 < time.monotonic() - started < 5
    assert agent.read_text() == WRITTEN


def test_a_save_that_never_lands_is_said_in_the_cells_output(tmp_path):
    agent = write_agent(tmp_path, STUB)
    note = on_screen.settle(agent, tabs=[{"path": "agent.py", "text": WRITTEN, "saving": True}], patience=0.2)
    assert note.startswith("Your agent.py tab had unsaved edits, and saving them did not finish within 0.2 s, so "
                           "this cell used ")
    assert note.endswith("as last saved. Save it (Ctrl+S in its tab) and run the cell again.")


def test_a_tab_not_saved_because_the_disk_changed_too_says_the_cell_used_the_disk(tmp_path):
    agent = write_agent(tmp_path, STUB)
    started = time.monotonic()
    note = on_screen.settle(agent, tabs=[{"path": "agent.py", "text": WRITTEN, "saving": False}], patience=10)
    assert time.monotonic() - started < 1, "it waited for a save that the lab said it would not make"
    assert "changed on disk too (by spec2code reset?), so your edits were not saved for you. This cell used the " \
           "file on disk." in note


@pytest.mark.slow  # starts a kernel
def test_what_the_extension_sends_is_read_from_the_cells_request_in_a_real_kernel(tmp_path):
    """As JupyterLab sends it: the cell's metadata rides in the execute request; the kernel's check cell waits for
    the file on disk to hold the tab's text, and grades that."""
    launch.setup()
    agent = write_agent(tmp_path, STUB)
    manager, client = start_new_kernel(kernel_name=launch.KERNEL_NAME, cwd=str(tmp_path))
    try:
        code = (f"from lab.jupyter import try_function\n"
                f"try_function('extract_code', '  x = 1  ', agent_path={str(agent)!r})")
        tabs = [{"path": f"{tmp_path.name}/agent.py", "text": WRITTEN, "saving": True}]
        request = client.session.msg("execute_request", {"code": code, "silent": False, "store_history": True,
                                                         "user_expressions": {}, "allow_stdin": False},
                                     metadata={on_screen.SCREEN_KEY: tabs})
        later(0.5, lambda: agent.write_text(WRITTEN))  # the extension's save, landing after the request
        client.shell_channel.send(request)
        shown = []
        while True:
            try:
                message = client.get_iopub_msg(timeout=60)
            except queue.Empty:
                pytest.fail(f"the kernel never finished the cell; it showed {shown}")
            if message["parent_header"].get("msg_id") != request["header"]["msg_id"]:
                continue
            content = message["content"]
            shown += [content.get("data", {}).get("text/plain", "") or content.get("text", "")]
            if message["msg_type"] == "status" and content["execution_state"] == "idle" and len(shown) > 1:
                break
        text = "\n".join(shown)
        assert "extract_code returned: a str (1 line)" in text and "x = 1" in text, text
        assert "unsaved" not in text, text
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
