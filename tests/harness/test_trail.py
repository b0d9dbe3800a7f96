"""The audit trail: asks and runs as JSON lines, tests fingerprinted between rounds, cut feedback recorded, and the
timeline a reviewer reads."""

import json
import os

import pytest

from harness import trail
from harness.model import respond
from harness.tasks import LEAP_YEAR

RESULT = {"passed": 1, "failed": ["test_a"], "total": 2, "error": None, "output": "", "isolation": "process"}


@pytest.fixture(autouse=True)
def no_trail_setting(monkeypatch):
    monkeypatch.delenv("SPEC2CODE_TRAIL", raising=False)
    monkeypatch.delenv("SPEC2CODE_MODEL", raising=False)


def test_asks_and_runs_are_appended_as_json_lines(tmp_path):
    path = tmp_path / "trail.jsonl"
    record = trail.Trail(path)
    record.start(agent="solutions/agent.py", task="leap_year")
    record.ask("Write pytest tests for is_leap_year.", respond("Write pytest tests for is_leap_year.", backend="offline"))
    record.run(LEAP_YEAR.script.gamed_fix, LEAP_YEAR.script.tests, dict(RESULT), 0.05)
    events = trail.read(path)
    assert [e["event"] for e in events] == ["start", "ask", "run"] == [e["event"] for e in record.events]
    start, ask, run = events
    assert start["task"] == "leap_year" and ask["n"] == 1 and run["n"] == 1
    assert ask["backend"] == "offline" and ask["cached"] is False and ask["seconds"] >= 0 and ask["tokens"] is None
    assert "def test_" in ask["reply"] and ask["prompt"].startswith("Write pytest")
    assert run["tests_sha256"] == trail.fingerprint(LEAP_YEAR.script.tests) and run["isolation"] == "process"
    assert run["result"]["failed"] == ["test_a"] and run["seconds"] == 0.05
    assert [f["kind"] for f in run["flags"]] == ["test literals", "test literals"]
    assert all(line.startswith("{") for line in path.read_text().splitlines())


def test_an_attempt_that_changes_the_tests_is_flagged_and_a_new_solve_starts_afresh():
    record = trail.Trail()
    record.start()
    first = record.run("x = 1", "def test_a():\n    assert True\n", dict(RESULT), 0.1)
    same = record.run("x = 2", "def test_a():\n    assert True\n", dict(RESULT), 0.1)
    changed = record.run("x = 3", "def test_a():\n    pass\n", dict(RESULT), 0.1)
    assert "tests_changed" not in first and "tests_changed" not in same
    assert changed["tests_changed"] == {"before": first["tests_sha256"], "now": changed["tests_sha256"]}
    record.start()
    assert "tests_changed" not in record.run("x = 4", "def test_b():\n    pass\n", dict(RESULT), 0.1)


def test_feedback_cut_to_the_end_of_the_output_is_recorded_with_what_was_cut():
    record = trail.Trail()
    output = "".join(f"line {i}: assert something\n" for i in range(300))
    record.run("x = 1", "def test_a():\n    pass\n", dict(RESULT, output=output), 0.1)
    ask = record.ask("Fix it. Details:\n" + output[-3000:], "a reply")
    assert ask["feedback"]["output_chars"] == len(output) and ask["feedback"]["sent_chars"] == 3000
    assert ask["feedback"]["cut_chars"] == len(output) - 3000 and ask["feedback"]["kept"] == "end"
    assert ask["feedback"]["cut"].startswith("line 0: assert something")
    whole = record.ask("Details:\n" + output, "a reply")
    assert whole["feedback"]["cut_chars"] == 0
    assert "feedback" not in record.ask("A prompt without the output.", "a reply")


def test_the_active_trail_is_the_recording_one_else_the_settings_file(monkeypatch, tmp_path):
    assert trail.active() is None
    monkeypatch.setenv("SPEC2CODE_TRAIL", str(tmp_path / "from-settings.jsonl"))
    from_settings = trail.active()
    assert from_settings.path == tmp_path / "from-settings.jsonl" and trail.active() is from_settings
    mine = trail.Trail()
    with trail.recording(mine):
        assert trail.active() is mine
    assert trail.active() is from_settings


def test_a_trail_with_odd_text_stays_valid_json(tmp_path):
    record = trail.Trail(tmp_path / "t.jsonl")
    record.ask("prompt with \x1b[31m and \ud800", "reply\x00")
    [event] = trail.read(tmp_path / "t.jsonl")
    assert "\\x1b" in event["prompt"] and "\\ud800" in event["prompt"]
    assert json.loads(os.linesep.join((tmp_path / "t.jsonl").read_text().splitlines()))["reply"] == "reply\\x00"


def test_reading_skips_lines_that_are_not_events(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"event": "ask", "n": 1}\nnot json\n[1, 2]\n{"no": "event"}\n', encoding="utf-8")
    assert trail.read(path) == [{"event": "ask", "n": 1}]


def test_the_timeline_shows_asks_runs_flags_and_cut_feedback():
    record = trail.Trail()
    record.start(agent="solutions/agent.py", task="leap_year", model="gaming")
    record.ask("Write tests.", "```python\ndef test_a(): pass\n```")
    output = "x" * 5000
    record.run("def is_leap_year(y):\n    if y in (1900, 2100):\n        return False\n",
               "def test_a():\n    assert is_leap_year(1900) is False\n",
               {"passed": 0, "failed": ["test_a"], "total": 1, "error": None, "output": output,
                "isolation": "process"}, 0.04)
    record.ask("Fix it: " + output[-3000:], "ok")
    record.run("x = 1", "def test_b():\n    pass\n",
               {"passed": 1, "failed": [], "total": 1, "error": None, "output": "", "isolation": "process"}, 0.03)
    out = trail.timeline(record.events)
    assert "1 solve(s), 2 ask(s), 2 run(s)" in out
    assert "solve 1 · agent solutions/agent.py · task leap_year · model gaming" in out
    assert "run 1  0/1 tests passed — failing: test_a · 0.04 s · process · tests " in out
    assert "! line 2: special-cases inputs of the visible tests: 1900\n" in out
    assert "! feedback: sent 3000 of the 5000 characters of the last run's output (its end); cut 2000" in out
    assert "! the tests changed since the run before" in out
