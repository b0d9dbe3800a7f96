"""The live backend for real: the `openai` SDK against a small OpenAI-compatible server on 127.0.0.1."""

import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from harness import ask
from harness.model import cache
from harness.model import live as live_model
from harness.errors import ModelError

REPLY = "Here you go:\n```python\ndef is_leap_year(year):\n    return year % 4 == 0\n```"


class FakeServer:
    """An OpenAI-compatible chat endpoint on loopback that records each request and answers from `self.answer`."""

    def __init__(self):
        self.requests = []  # (path, headers with lower-case names, json body)
        self.answer = (200, None)  # (status, body); body None = a chat.completion with REPLY
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status, payload = server.answer
                if payload is None:
                    payload = {
                        "id": "chatcmpl-1",
                        "object": "chat.completion",
                        "created": 1700000000,
                        "model": body["model"],
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": REPLY}, "finish_reason": "stop"}
                        ],
                        "usage": {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14},
                    }
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def stop(self):
        if not self.thread.is_alive():
            return
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    """Only our settings, a fresh cache, and no proxy: every request stays on 127.0.0.1."""
    for name in list(os.environ):
        if name.startswith(("SPEC2CODE_", "OPENAI_")) or name.lower().endswith("_proxy"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("NO_PROXY", "*")
    monkeypatch.setenv("SPEC2CODE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def server(monkeypatch):
    srv = FakeServer()
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    monkeypatch.setenv("SPEC2CODE_MODEL_NAME", "tiny-test-model")
    monkeypatch.setenv("OPENAI_BASE_URL", srv.url)
    monkeypatch.setenv("OPENAI_API_KEY", "dummy-key")
    yield srv
    srv.stop()


def dead_url():
    """A loopback URL where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_ask_live_sends_the_prompt_to_the_server_and_caches_the_reply(server, env):
    assert ask("Write is_leap_year.") == REPLY
    [(path, headers, body)] = server.requests
    assert path == "/v1/chat/completions"
    assert headers["authorization"] == "Bearer dummy-key"
    assert body["model"] == "tiny-test-model"
    assert body["messages"] == [{"role": "user", "content": "Write is_leap_year."}]
    assert body["temperature"] == live_model.TEMPERATURE

    [entry] = list(env.rglob("*.json"))
    stored = json.loads(entry.read_text(encoding="utf-8"))
    assert stored["reply"] == REPLY and stored["model"] == "tiny-test-model" and stored["backend"] == "live"

    assert ask("Write is_leap_year.") == REPLY  # the second time comes from the cache
    assert len(server.requests) == 1


def test_another_sample_is_asked_and_cached_separately(server, env):
    ask("Write is_leap_year.")
    ask("Write is_leap_year.", sample=1)
    ask("Write is_leap_year.", sample=1)
    assert len(server.requests) == 2
    assert len(list(env.rglob("*.json"))) == 2


def test_replay_after_the_server_is_gone_gives_the_same_reply(server, monkeypatch):
    first = ask("Write is_leap_year.")
    server.stop()
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    monkeypatch.delenv("OPENAI_API_KEY")  # replay needs no key
    assert ask("Write is_leap_year.") == first
    monkeypatch.delenv("SPEC2CODE_MODEL")  # replay alone is enough
    assert ask("Write is_leap_year.") == first


def test_a_replay_miss_says_what_is_missing_where_it_looked_and_how_to_record(monkeypatch, env):
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    with pytest.raises(ModelError) as info:
        ask("Never recorded.")
    message = str(info.value)
    assert "is not in the recorded cache" in message
    assert str(env) in message and "does not exist" in message
    assert "SPEC2CODE_MODEL=live" in message and "without SPEC2CODE_REPLAY" in message
    assert "\n" not in message


def test_a_replay_miss_names_the_models_the_cache_was_recorded_with(monkeypatch, env):
    cache.store(cache.request("live", "llama3.1", "p", {"temperature": live_model.TEMPERATURE}), "r", env)
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    with pytest.raises(ModelError, match="holds 1 entry for model 'llama3.1' .set SPEC2CODE_MODEL_NAME=llama3.1"):
        ask("p")
    monkeypatch.setenv("SPEC2CODE_MODEL_NAME", "llama3.1")
    assert ask("p") == "r"


def test_a_missing_key_is_one_line_that_says_what_to_set(server, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(ModelError) as info:
        ask("Write is_leap_year.")
    message = str(info.value)
    assert message.startswith("The live model needs OPENAI_API_KEY. Set it (export OPENAI_API_KEY=...")
    assert "unset SPEC2CODE_MODEL" in message and "\n" not in message
    assert server.requests == []


def test_a_server_that_is_down_is_a_model_error_within_seconds(monkeypatch):
    url = dead_url()
    monkeypatch.setenv("SPEC2CODE_MODEL", "live")
    monkeypatch.setenv("OPENAI_API_KEY", "dummy-key")
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    start = time.monotonic()
    with pytest.raises(ModelError) as info:
        ask("Write is_leap_year.")
    assert time.monotonic() - start < 5
    message = str(info.value)
    assert message.startswith(f"The model server at {url} could not be reached (")
    assert "Is it running? Check OPENAI_BASE_URL" in message and "\n" not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__  # no SDK traceback attached


@pytest.mark.parametrize(
    "status, body, expected",
    [
        (401, {"error": {"message": "Bad key"}}, "refused the API key (HTTP 401: Bad key). Check OPENAI_API_KEY."),
        (404, {"error": {"message": "no such model"}}, "HTTP 404 for model 'tiny-test-model' (no such model)."),
        (429, {"error": {"message": "slow down"}}, "is rate-limiting you (HTTP 429: slow down)"),
        (500, {"error": {"message": "boom"}}, "answered HTTP 500 (boom)"),
        (200, {"choices": []}, "sent a reply with no text for model 'tiny-test-model'"),
    ],
)
def test_http_errors_and_empty_replies_are_one_line_model_errors(server, monkeypatch, status, body, expected):
    monkeypatch.setattr(live_model, "MAX_RETRIES", 0)  # the SDK would retry 429 and 5xx after a pause
    server.answer = (status, body)
    with pytest.raises(ModelError) as info:
        ask("Write is_leap_year.")
    message = str(info.value)
    assert expected in message and "\n" not in message
    assert server.url in message


def test_a_server_that_never_answers_times_out(server, monkeypatch):
    monkeypatch.setattr(live_model, "MAX_RETRIES", 0)
    release = threading.Event()
    server.answer = (200, None)
    original = server.httpd.RequestHandlerClass.do_POST
    server.httpd.RequestHandlerClass.do_POST = lambda handler: release.wait(5) or original(handler)
    try:
        with pytest.raises(ModelError, match=r"did not answer within 0.5 s"):
            live_model.reply("Write is_leap_year.", timeout=0.5)
    finally:
        release.set()


def test_nothing_is_cached_when_the_model_fails(server, env, monkeypatch):
    monkeypatch.setattr(live_model, "MAX_RETRIES", 0)
    server.answer = (500, {"error": {"message": "boom"}})
    with pytest.raises(ModelError):
        ask("Write is_leap_year.")
    assert list(env.rglob("*.json")) == []
