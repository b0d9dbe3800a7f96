"""`spec2code trail`: any agent leaves a trail where the lab serves it, printed as a readable timeline."""

import pytest

from checks.runner import Agent, LabModel
from harness import trail
from harness.errors import UsageError
from lab.commands import trail as trail_command
from lab.commands.try_agent import REFERENCE_AGENT
from tests.paths import ROOT


@pytest.fixture(autouse=True)
def no_settings(monkeypatch):
    for name in ("SPEC2CODE_TRAIL", "SPEC2CODE_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.slow
def test_any_agent_leaves_a_trail_without_its_own_cooperation(monkeypatch, tmp_path):
    path = tmp_path / "trail.jsonl"
    monkeypatch.setenv("SPEC2CODE_TRAIL", str(path))
    agent_file = ROOT / "tests" / "agents" / "correct" / "line_scanner.py"  # written knowing nothing of trails
    with Agent(agent_file, model=LabModel("offline")) as agent:
        out = agent.call("solve", trail.fingerprint("x") and __import__("harness").SPEC, time_limit=30)
    events = trail.read(path)
    runs = [e for e in events if e["event"] == "run"]
    assert out["passed"] and len(runs) == 2 and len([e for e in events if e["event"] == "ask"]) == 3
    assert runs[0]["result"]["failed"] == ["test_centuries_are_not_leap_years"] and runs[1]["result"]["failed"] == []


def test_the_command_prints_where_the_trail_is_and_its_timeline(capsys, tmp_path):
    path = tmp_path / "trail.jsonl"
    record = trail.Trail(path)
    record.start(agent="solutions/agent.py", task="leap_year", model="gaming")
    record.ask("Write tests.", "ok")
    assert trail_command.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Trail: ") and out.endswith(trail.timeline(trail.read(path)) + "\n")
    assert "1 solve(s), 1 ask(s), 0 run(s)" in out


@pytest.mark.slow
def test_the_trail_of_spec2code_try_reads_back(capsys, tmp_path):
    from lab.commands import try_agent

    path = tmp_path / "t.jsonl"
    try_agent.main(["--agent", str(REFERENCE_AGENT), "--trail", str(path)])
    capsys.readouterr()
    assert trail_command.main([str(path), "--full"]) == 0
    out = capsys.readouterr().out
    assert "3 ask(s), 2 run(s)" in out and "verdict  visible 11/11 · held-out 9/9" in out
    assert "| def is_leap_year(year):" in out


def test_bidirectional_controls_in_a_trail_are_shown_escaped(capsys, tmp_path):
    import json

    trojan = 'if "user\u202e \u2066# admin\u2069 \u2066" != "user":'
    path = tmp_path / "t.jsonl"  # as an older lab wrote it, raw
    event = {"event": "run", "n": 1, "at": 0.1, "solution": trojan, "result": {"passed": 1, "total": 1}}
    path.write_text(json.dumps(event, ensure_ascii=False) + "\n", encoding="utf-8")
    assert trail_command.main([str(path), "--full"]) == 0
    out = capsys.readouterr().out
    assert '| if "user\\u202e \\u2066# admin\\u2069 \\u2066" != "user":' in out
    assert not {"\u202e", "\u2066", "\u2069"} & set(out)
    recorded = trail.Trail(tmp_path / "new.jsonl").run(trojan, "def test_a():\n    pass\n", {"passed": 1}, 0.1)
    assert "\u202e" not in recorded["solution"] and "\\u202e" in recorded["solution"]


def test_a_missing_or_empty_trail_is_one_line(tmp_path):
    with pytest.raises(UsageError, match="there is no trail at"):
        trail_command.main([str(tmp_path / "nothing.jsonl")])
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(UsageError, match="holds no trail events"):
        trail_command.main([str(tmp_path / "empty.jsonl")])
