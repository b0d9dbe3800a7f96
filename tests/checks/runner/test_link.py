"""link.ChildLink: the folder of a child whose grader was killed with SIGKILL is reclaimed by the next grader."""

import json
import os
import subprocess
import sys

import pytest

from tests.paths import REFERENCE_AGENT, ROOT

# A grader that starts an agent's child, says where its folder is, and waits to be killed.
GRADER = f"""
import json, sys
sys.path.insert(0, {str(ROOT)!r})
from checks.runner import Agent
agent = Agent({str(REFERENCE_AGENT)!r})
agent.load()
print(json.dumps(agent._link._mountpoint), flush=True)
sys.stdin.read()
agent.stop()
"""


def start_grader() -> tuple[subprocess.Popen, str]:
    grader = subprocess.Popen([sys.executable, "-c", GRADER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return grader, json.loads(grader.stdout.readline())


@pytest.mark.slow
def test_a_killed_graders_folder_is_reclaimed_by_the_next_and_a_living_ones_is_not():
    killed, left = start_grader()
    killed.kill()
    killed.wait()
    assert os.path.isdir(left)  # SIGKILL: nothing of it ran to remove its folder
    living, kept = start_grader()
    try:
        assert not os.path.exists(left), "the next grader left a dead grader's folder"
        following, its_own = start_grader()  # one more: the living grader's folder is its own still
        following.kill()
        following.wait()
        assert os.path.isdir(kept)
    finally:
        living.kill()
        living.wait()
    last, its_folder = start_grader()
    last.communicate("")  # it ends as a grader does, removing its own folder
    assert not any(os.path.exists(folder) for folder in (kept, its_own, its_folder))
