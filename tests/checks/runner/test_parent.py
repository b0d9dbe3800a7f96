"""checks/runner/parent.py: an agent's process that the system's loader cannot start (exit status 127) is the
grading machine's fault, said as such, never a submission's "exit() call"."""

import pytest

from checks.grading import grade_submission
from checks.runner import CannotStart, parent
from checks.runner.outcomes import Crashed
from checks.submissions import Submission
from lab.commands import grade
from tests.paths import REFERENCE_AGENT


class NoInterpreter:
    """A child whose interpreter the loader cannot load for the agent's user: it exits 127 before saying anything."""

    printed, isolation = "", {"level": "user"}
    started = []

    def __init__(self, agent, env, **options):
        NoInterpreter.started.append(agent.name)

    def receive(self, deadline):
        raise Crashed("its process exited with code 127", exit_code=127)

    def stop(self):
        pass


@pytest.fixture
def no_interpreter(monkeypatch):
    NoInterpreter.started = []
    monkeypatch.setattr(parent, "ChildLink", NoInterpreter)
    return NoInterpreter


def test_status_127_from_every_child_is_the_machines_fault_and_says_how_to_fix_it(no_interpreter):
    with parent.Agent(REFERENCE_AGENT) as agent, pytest.raises(CannotStart) as raised:
        agent.load()
    assert str(raised.value).startswith("the agent's process cannot start here: ")
    assert "exits with status 127 for the user the agent runs as" in str(raised.value)
    assert "exit()" not in str(raised.value)
    assert no_interpreter.started == ["agent.py", "agent.py"]  # the agent, then an empty one: 127 for both


def test_an_agent_that_ends_its_own_process_with_127_is_still_that_agents_fault(monkeypatch, tmp_path):
    """The empty agent starts, so the 127 was the submission's own (os._exit(127) while loading)."""
    agent = tmp_path / "agent.py"
    agent.write_text("import os\nos._exit(127)\n", encoding="utf-8")
    with parent.Agent(agent) as loaded, pytest.raises(parent.LoadFailed) as raised:
        loaded.load()
    assert raised.value.exit_code == 127 and "ended its process while loading (exit code 127)" in str(raised.value)


def test_grading_scores_no_one_when_no_child_can_start(no_interpreter, capsys):
    with pytest.raises(CannotStart):
        grade_submission(Submission("ann", REFERENCE_AGENT))
    assert grade.main([str(REFERENCE_AGENT), "--format", "json"]) == CannotStart.exit_status == 3
    said = capsys.readouterr()
    assert said.out == "" and said.err.startswith("spec2code grade: the agent's process cannot start here: ")
