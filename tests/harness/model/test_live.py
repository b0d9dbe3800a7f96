"""The live backend for real: the `openai` SDK against a small OpenAI-compatible server on 127.0.0.1."""

import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from harness import ask
from harness.model import cache, respond
from harness.model import live as live_model
from harness.model import offline
from harness.errors import ModelError
from harness.tasks import SPEC
from solutions import agent

REPLY = "Here you go:\n```python\ndef is_leap_year(year):\n    return year % 4 == 0\n```"


class FakeServer:
    """An OpenAI-compatible chat endpoint on loopback that records each request and answers from `self.answer`."""

    def __init__(self):
        self.requests = []  # (path, headers with lower-case names, json body)
        self.answer = (200, None)  # (status, body); body None = a chat.completion with REPLY
        self.content = lambda prompt: REPLY  # the reply's text for a prompt
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
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": server.content(body["messages"][0]["content"])},
                                "finish_reason": "stop",
                            }
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_another_sample_is_asked_and_cached_separately(server, env):
    ask("Write is_leap_year.")
    ask("Write is_leap_year.", sample=1)
    ask("Write is_leap_year.", sample=1)
    assert len(server.requests) == 2
    assert len(list(env.rglob("*.json"))) == 2


@pytest.mark.slow
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


@pytest.mark.slow
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


def hang(server):
    """Make the server accept each request and never answer it (until the test ends)."""
    release = threading.Event()
    original = server.httpd.RequestHandlerClass.do_POST
    server.httpd.RequestHandlerClass.do_POST = lambda handler: release.wait(10) or original(handler)
    return release


@pytest.mark.slow
@pytest.mark.alone  # the wait it measures is in the message: at least the 0.5 s allowed, more on a loaded machine
def test_a_server_that_never_answers_is_reported_with_the_real_wait(server):
    release = hang(server)
    try:
        with pytest.raises(ModelError, match=r"accepted the request but sent no answer in (0\.[5-9]|1\.\d) s \(SPEC2CODE_LIVE_WAIT=0.5"):
            live_model.reply("Write is_leap_year.", wait=0.5)
    finally:
        release.set()


@pytest.mark.slow
@pytest.mark.alone  # it times the wait
def test_the_whole_wait_is_the_setting_retries_included(server, monkeypatch):
    monkeypatch.setenv("SPEC2CODE_LIVE_WAIT", "2")
    release = hang(server)
    start = time.monotonic()
    try:
        with pytest.raises(ModelError, match=r"no answer in \d+\.\d s \(SPEC2CODE_LIVE_WAIT=2 s"):
            ask("Write is_leap_year.")
    finally:
        release.set()
    # Not two tries of the whole wait, which take 4 s at least. (One wait and a second to spare was too little on a
    # loaded machine: the client's first start took 2.7 s in all.)
    assert time.monotonic() - start < 4
    assert len(server.requests) <= 1


@pytest.mark.slow
@pytest.mark.alone  # the wait it measures is in the message
def test_a_connect_timeout_says_the_server_could_not_be_reached(monkeypatch):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    queue = []
    for _ in range(3):  # fill the accept queue: further connections hang
        waiting = socket.socket()
        waiting.setblocking(False)
        try:
            waiting.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        queue.append(waiting)
    monkeypatch.setenv("OPENAI_API_KEY", "dummy-key")
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setattr(live_model, "CONNECT_TIMEOUT", 0.5)
    try:
        with pytest.raises(ModelError) as info:
            live_model.reply("Write is_leap_year.", wait=5)
    finally:
        for s in queue + [listener]:
            s.close()
    message = str(info.value)
    assert "could not be reached: no connection after 0.5 s (the connection timed out)" in message, message
    assert "no answer" not in message


# --- reasoning models: the thinking goes apart from the answer --------------------------------------------------


@pytest.mark.parametrize(
    "text, reasoning, answer",
    [
        ("<think>\nhmm\n</think>\n\nThe answer.", "hmm", "The answer."),
        ("  <think>a</think>b", "a", "b"),
        ("hmm, the template opened it\n</think>\nThe answer.", "hmm, the template opened it", "The answer."),
        ("<think>cut off before the end", "cut off before the end", ""),
        ("No reasoning here.", None, "No reasoning here."),
        ("Code with a <think> tag inside.", None, "Code with a <think> tag inside."),
    ],
)
def test_split_reasoning_takes_inline_thinking_out_as_reasoning_parsers_do(text, reasoning, answer):
    assert live_model.split_reasoning(text) == (reasoning, answer)


def test_ask_returns_the_answer_of_a_reasoning_model_and_keeps_its_thinking_apart(server, env):
    server.content = lambda prompt: offline.reply(prompt, persona="reasoning")
    prompt = "Implement this specification in Python.\n\nSpecification:\n" + SPEC
    got = respond(prompt, backend="live")
    assert "<think>" not in got.text and "</think>" not in got.text
    assert agent.extract_code(got.text) == offline.reply(prompt).split("```python\n")[1].split("```")[0].strip()
    assert "Let me draft it first" in got.reasoning and "```python" in got.reasoning
    assert got.tokens == {"prompt": 5, "completion": 9} and not got.cached and got.backend == "live"
    again = respond(prompt, backend="live")  # from the cache: the raw reply is kept, and split again
    assert again.cached and again.text == got.text and again.reasoning == got.reasoning and again.tokens is None
    [entry] = list(env.rglob("*.json"))
    assert json.loads(entry.read_text())["reply"].startswith("<think>")


def test_a_reply_with_only_reasoning_is_a_model_error_and_not_cached(server, env):
    server.content = lambda prompt: "<think>I will think about this for a very long"
    with pytest.raises(ModelError, match="sent only its reasoning"):
        ask("Write is_leap_year.")
    assert list(env.rglob("*.json")) == []


def test_nothing_is_cached_when_the_model_fails(server, env, monkeypatch):
    monkeypatch.setattr(live_model, "MAX_RETRIES", 0)
    server.answer = (500, {"error": {"message": "boom"}})
    with pytest.raises(ModelError):
        ask("Write is_leap_year.")
    assert list(env.rglob("*.json")) == []
