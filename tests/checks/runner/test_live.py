"""live.stop_all: an interrupted grading ends every agent's child at once, and starts no new one until it is done."""

import threading
import time

import pytest

from checks.runner import Agent, Crashed
from checks.runner import live
from tests.helpers import write_agent

LOOPS = """
def extract_code(reply):
    while True:
        pass
"""


@pytest.mark.slow
def test_stop_all_ends_a_call_waiting_in_another_thread_and_refuses_new_children(tmp_path):
    outcome = {}

    def grade_one(agent):
        started = time.monotonic()
        try:
            agent.call("extract_code", "x", time_limit=60)
        except BaseException as exc:  # noqa: BLE001 - what the grading thread sees is the point
            outcome["raised"] = exc
        outcome["seconds"] = time.monotonic() - started

    with Agent(write_agent(tmp_path, LOOPS)) as agent:
        agent.load()
        thread = threading.Thread(target=grade_one, args=(agent,))
        thread.start()
        time.sleep(0.5)  # the call is under way: the child loops
        with live.stop_all():
            thread.join(10)
            assert not thread.is_alive() and isinstance(outcome["raised"], Crashed) and outcome["seconds"] < 5
            with pytest.raises(live.Stopping):  # a fresh child for the next check is refused
                agent.call("extract_code", "x")
            with pytest.raises(KeyboardInterrupt):  # so the submission's grading ends, not just one check
                Agent(write_agent(tmp_path / "other", LOOPS)).load()
        assert live._links == set()
    with Agent(write_agent(tmp_path / "after", "def extract_code(reply):\n    return reply\n")) as after:
        assert after.call("extract_code", "ok") == "ok"  # once the block ends, children start again
