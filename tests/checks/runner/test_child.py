"""checks/runner/child.py: in the agent's process, every way to reach the harness's `ask` and `run` reaches the lab,
though the harness imports its modules only when the agent first uses them."""

from checks.runner import parent

REACHES_EVERY_WAY = '''\
import harness
from harness import ask as asked_at_load


def extract_code(reply):
    import harness.model
    import harness.sandbox
    import harness.sandbox.caller
    from harness.model import ask
    from harness.sandbox import run
    from harness.sandbox.caller import run as run_of_the_caller

    answers = [f("hello") for f in (asked_at_load, harness.ask, ask, harness.model.ask)]
    runs = [f("x = 1", "def test_x():\\n    pass\\n")["passed"]
            for f in (harness.run, run, run_of_the_caller, harness.sandbox.run, harness.sandbox.caller.run)]
    return {"answers": answers, "runs": runs}
'''


def test_every_ask_and_run_the_agent_can_import_is_answered_by_the_lab(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(REACHES_EVERY_WAY, encoding="utf-8")
    prompts, served = [], []

    def model(prompt, via):
        prompts.append(prompt)
        return "from the lab"

    def runs(solution, tests, timeout):
        served.append(solution)
        return {"passed": 7, "failed": [], "total": 7, "error": None, "output": ""}

    with parent.Agent(path, runs=runs, model=model) as agent:
        got = agent.call("extract_code", "")
    assert got == {"answers": ["from the lab"] * 4, "runs": [7] * 5}
    assert prompts == ["hello"] * 4 and served == ["x = 1"] * 5


def test_the_lab_replaces_the_ask_and_run_the_harness_defines():
    import harness
    from checks.runner.child import REPLACED

    for name, home in REPLACED.items():
        assert getattr(harness, name).__module__ == home and getattr(harness, name).__qualname__ == name
