"""The grading child is walled off: a submission cannot write the lab, reach the network or signal the grader."""

import os
import socket
import textwrap

import pytest

from checks.runner import Agent
from harness.sandbox import walls as isolation

pytestmark = pytest.mark.skipif(
    isolation.namespaces_available() is not None, reason="walls need Linux namespaces (run as root)"
)

PROBE = textwrap.dedent(
    """
    import os, socket

    def extract_code(reply):
        facts = {"uid": os.getuid(), "cwd": os.getcwd()}
        try:
            open(os.path.join(ROOT, "WALL_PROBE"), "w").write("x")
            facts["wrote_lab"] = True
        except OSError:
            facts["wrote_lab"] = False
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            facts["network"] = True
        except OSError:
            facts["network"] = False
        try:
            os.kill(GRADER, 0)
            facts["grader_signalled"] = True
        except OSError:
            facts["grader_signalled"] = False
        return repr(facts)
    """
)


def test_the_grading_child_runs_as_nobody_without_network_or_write_access(tmp_path, project_root):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    agent = tmp_path / "agent.py"
    header = f"ROOT = {project_root!r}\nPORT = {listener.getsockname()[1]}\nGRADER = {os.getpid()}\n"
    agent.write_text(header + PROBE)
    try:
        with Agent(agent) as child:
            facts = eval(child.call("extract_code", "x"))  # noqa: S307 - our own probe's repr of a dict
    finally:
        listener.close()
    assert facts == {
        "uid": isolation.NOBODY,
        "cwd": "/work",
        "wrote_lab": False,
        "network": False,
        "grader_signalled": False,
    }
    assert not os.path.exists(os.path.join(project_root, "WALL_PROBE"))
