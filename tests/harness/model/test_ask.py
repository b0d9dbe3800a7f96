"""harness.ask: the backend is chosen per call from SPEC2CODE_MODEL; only live replies go through the cache."""

import os
import re

import pytest

import harness
from harness import SPEC, ask
from harness.model import live as live_model
from harness.model import offline as offline_model
from harness.errors import ModelError, SettingsError


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    for name in list(os.environ):
        if name.startswith(("SPEC2CODE_", "OPENAI_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("SPEC2CODE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def calls(monkeypatch):
    """Record the calls each backend gets, instead of running it."""
    seen = []

    def fake_offline(prompt, *, persona="honest", sample=0):
        seen.append(("offline", prompt, persona))
        return f"{persona} reply"

    def fake_live(prompt, *, model=None, temperature=None, wait=None):
        seen.append(("live", prompt, model))
        return live_model.Completion(f"live reply {len(seen)}")

    monkeypatch.setattr(offline_model, "reply", fake_offline)
    monkeypatch.setattr(live_model, "complete", fake_live)
    return seen


def test_it_is_the_public_ask():
    assert harness.ask is ask and ask.__module__ == "harness.model"
    assert "offline" in ask.__doc__ and "Example" in ask.__doc__


def test_the_default_is_the_offline_model_with_no_network_or_key():
    prompt = f"Write pytest tests for this spec:\n{SPEC}"
    reply = ask(prompt)
    assert reply == offline_model.reply(prompt, persona="honest")
    assert "def test_" in reply
    assert ask(prompt) == reply  # deterministic


@pytest.mark.parametrize("model, persona", [("offline", "honest"), ("gaming", "gaming"), ("GAMING", "gaming")])
def test_the_scripted_backends_are_chosen_per_call_and_not_cached(monkeypatch, calls, env, model, persona):
    monkeypatch.setenv("SPEC2CODE_MODEL", model)
    assert ask("p") == f"{persona} reply"
    assert ask("p", sample=3) == f"{persona} reply"
    assert calls == [("offline", "p", persona)] * 2
    assert not env.exists()


def test_the_real_gaming_persona_differs_from_the_honest_one(monkeypatch):
    prompt = f"Implement this spec:\n{SPEC}\nYour last attempt failed these tests:\nFAILED test_centuries_are_not_leap_years"
    honest = ask(prompt)
    monkeypatch.setenv("SPEC2CODE_MODEL", "gaming")
    assert ask(prompt) == offline_model.reply(prompt, persona="gaming") != honest


def test_live_replies_are_cached_per_prompt_and_sample(monkeypatch, calls, env):
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    monkeypatch.setenv("SPEC2CODE_MODEL_NAME", "some-model")
    assert ask("p") == "live reply 1"
    assert ask("p") == "live reply 1"
    assert ask("p", sample=1) == "live reply 2"
    assert ask("q") == "live reply 3"
    assert ask("p", sample=1) == "live reply 2"
    assert calls == [("live", "p", "some-model"), ("live", "p", "some-model"), ("live", "q", "some-model")]
    assert len(list(env.rglob("*.json"))) == 3


def test_another_model_name_is_another_cache_entry(monkeypatch, calls):
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    ask("p")
    monkeypatch.setenv("SPEC2CODE_MODEL_NAME", "other")
    assert ask("p") == "live reply 2"


def test_a_corrupt_entry_is_warned_about_and_asked_again(monkeypatch, calls, env):
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    ask("p")
    [entry] = list(env.rglob("*.json"))
    entry.write_text('{"reply": ', encoding="utf-8")
    with pytest.warns(UserWarning, match="Ignoring cache entry .* is not valid JSON"):
        assert ask("p") == "live reply 2"
    assert ask("p") == "live reply 2"  # repaired


def test_a_cache_that_cannot_be_written_is_a_warning_not_a_crash(monkeypatch, calls, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    monkeypatch.setenv("SPEC2CODE_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(UserWarning) as record:
        assert ask("p") == "live reply 1"
    [warning] = record
    assert re.match("Could not save the reply in the cache .* set SPEC2CODE_CACHE_DIR", str(warning.message))


def test_replay_answers_from_the_cache_and_never_calls_the_model(monkeypatch, calls, env):
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    recorded = ask("p")
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    assert ask("p") == recorded
    with pytest.raises(ModelError, match="is not in the recorded cache"):
        ask("never recorded")
    assert len(calls) == 1


def test_replay_with_a_scripted_model_named_explicitly_is_a_settings_error(monkeypatch, calls):
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    monkeypatch.setenv("SPEC2CODE_MODEL", "gaming")
    with pytest.raises(SettingsError, match="SPEC2CODE_REPLAY=1 replays recorded live replies"):
        ask("p")
    assert calls == []


def test_a_typo_in_a_setting_fails_before_anything_is_asked(monkeypatch, calls):
    monkeypatch.setenv("SPEC2CODE_MODLE", "live")
    with pytest.raises(SettingsError, match="Did you mean SPEC2CODE_MODEL?"):
        ask("p")
    monkeypatch.delenv("SPEC2CODE_MODLE")
    monkeypatch.setenv("SPEC2CODE_MODEL", "gpt")
    with pytest.raises(SettingsError, match=re.escape("use offline | gaming | live")):
        ask("p")
    assert calls == []


@pytest.mark.parametrize("prompt, sample", [(["a list"], 0), (None, 0), ("p", -1), ("p", True), ("p", 1.0)])
def test_wrong_argument_types_say_what_is_expected(prompt, sample):
    with pytest.raises(TypeError, match=r"ask\(\)|sample="):
        ask(prompt, sample=sample)
