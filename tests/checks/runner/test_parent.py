"""checks/runner/parent.py: an agent's process that the system's loader cannot start (exit status 127) is the
grading machine's fault, said as such, never a submission's "exit() call"; runs past the allowance count as the
call's own time; a prompt too long for the model is refused before it crosses."""

import pytest

from checks.grading import grade_submission
from checks.runner import CannotStart, parent
from checks.runner.outcomes import Crashed
from checks.scripted import ScriptedAsk
from checks.submissions import Submission
from lab.commands import grade
from harness.model.reading import MAX_READ
from tests.paths import REFERENCE_AGENT


class NoInterpreter:
    """A child whose interpreter the loader cannot load for the agent's user: it exits 127 before saying anything."""

    printed, isolation = "", {"level": "user"}
    python = "/var/tmp/spec2code-python3-copy/bin/python3"  # the Python it was started with: a copy, as at `user`
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
    assert str(raised.value).startswith(f"the agent's process cannot start here: {NoInterpreter.python} exits ")
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


RUNS_AGAIN_AND_AGAIN = '''\
import harness


def holdout_check(solution_src):
    for _ in range(30):
        harness.run(solution_src, "def test_x():\\n    pass\\n", timeout=10)
    return []
'''


def slow_runs(seconds):
    """What answers harness.run: each run takes `seconds`, as a run of a solution that hangs until its timeout."""
    import time

    served = []

    def runs(solution, tests, timeout):
        time.sleep(seconds)
        served.append(timeout)
        return {"passed": 0, "failed": ["test_x"], "total": 1, "error": "timeout", "output": ""}

    return runs, served


@pytest.mark.slow
def test_runs_past_the_allowance_count_as_the_calls_own_time(tmp_path, monkeypatch):
    """30 runs of a hanging solution once made one call take its limit plus 60 s; now it ends near its limit."""
    import time

    monkeypatch.setattr(parent, "RUN_ALLOWANCE", 1.0)
    path = tmp_path / "agent.py"
    path.write_text(RUNS_AGAIN_AND_AGAIN, encoding="utf-8")
    runs, served = slow_runs(0.5)
    with parent.Agent(path, runs=runs) as agent:
        agent.load()
        started = time.monotonic()
        with pytest.raises(parent.TimedOut) as raised:
            agent.call("holdout_check", "x = 1\n", time_limit=1.0)
        took = time.monotonic() - started
    assert took < 6 and len(served) <= 6, (took, served)  # 1 s of its own + 1 s free + 1 s counted, and a run's end
    assert str(raised.value).startswith("holdout_check took more than 1 s, counting ")
    assert str(raised.value).endswith(" s of the runs it asked for")


@pytest.mark.slow
def test_the_few_runs_of_an_honest_call_are_not_counted(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(RUNS_AGAIN_AND_AGAIN.replace("range(30)", "range(4)"), encoding="utf-8")
    runs, served = slow_runs(0.5)  # 2 s of runs, twice the call's own limit, within the allowance
    with parent.Agent(path, runs=runs) as agent:
        assert agent.call("holdout_check", "x = 1\n", time_limit=1.0) == []
    assert len(served) == 4


LONG_PROMPTS = '''\
import harness


def write_tests(spec, ask):
    said = []
    for send in (ask, harness.ask):
        try:
            send("x" * (200_001 + len(said)))
        except RuntimeError as error:
            said.append(str(error))
    said.append(ask("short"))
    return said
'''


class HeardPrompts(ScriptedAsk):
    """The checks' model, noting the length of each prompt it was handed whole."""

    def __init__(self, replies):
        super().__init__(replies)
        self.heard = []

    def __call__(self, prompt, via="given"):
        self.heard.append(len(prompt))
        return super().__call__(prompt, via)


def test_a_prompt_longer_than_the_model_reads_is_refused_before_it_leaves_the_agents_process(tmp_path):
    """A prompt of megabytes once crossed whole to be refused: on a busy machine the call then ran out of its time,
    and the learner read "stopped" instead of why. Now the agent's process says only its length."""
    path = tmp_path / "agent.py"
    path.write_text(LONG_PROMPTS, encoding="utf-8")
    model = HeardPrompts(["ok"])
    with parent.Agent(path) as agent:
        said = agent.call("write_tests", "spec", model)
    assert said == [f"the prompt is {n} characters long; the model reads at most {MAX_READ}"
                    for n in (200_001, 200_002)] + ["ok"]
    assert model.heard == [len("short")]  # the two long prompts never crossed
    assert model.calls == [("given", ""), ("default", ""), ("given", "short")]  # each is still a call, as before


def test_a_long_prompt_sent_whole_is_still_refused_by_the_lab(tmp_path):
    """Where the agent's process is not told a limit (as one that ignores it), the prompt crosses whole, and the
    lab's side refuses it all the same: the refusal before sending only saves the time."""
    path = tmp_path / "agent.py"
    path.write_text(LONG_PROMPTS, encoding="utf-8")

    class NoLimitSaid(HeardPrompts):
        reads = None

    model = NoLimitSaid(["ok"])
    with parent.Agent(path) as agent:
        said = agent.call("write_tests", "spec", model)
    assert said == [f"the prompt is {n} characters long; the model reads at most {MAX_READ}"
                    for n in (200_001, 200_002)] + ["ok"]
    assert model.heard == [200_001, 200_002, len("short")]
    assert model.calls == [("given", ""), ("default", ""), ("given", "short")]
