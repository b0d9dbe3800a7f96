"""The live backend: any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, ...) through the `openai` SDK."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .. import settings
from ..errors import ModelError
from ..text import one_line

TEMPERATURE = 0.2  # a little variety between samples, mostly stable answers
CONNECT_TIMEOUT = 5.0  # seconds to reach the server; a dead server fails fast
MAX_RETRIES = 1  # more tries after a refused connection, HTTP 429 or 5xx, while SPEC2CODE_LIVE_WAIT allows
RETRY_PAUSE = 0.5  # seconds between tries

OFFLINE_HINT = "or use the offline model: unset SPEC2CODE_MODEL."
ONLY_REASONING = (
    "The model {model!r} sent only its reasoning (<think> with no </think> and no answer after it): it may have "
    "been cut off. Try again, or allow the model more output tokens."
)
THINK, END_THINK = "<think>", "</think>"


@dataclass(frozen=True)
class Completion:
    """What the server sent: the message's text as it came, reasoning sent apart from it, tokens counted."""

    text: str
    reasoning: str | None = None  # a `reasoning_content` field, from servers with a reasoning parser
    tokens: dict | None = None  # {"prompt": n, "completion": m}


def reply(prompt: str, *, model: str | None = None, temperature: float = TEMPERATURE, wait: float | None = None) -> str:
    """Ask the live model once (no cache) and return its answer, without any inline reasoning."""
    return split_reasoning(complete(prompt, model=model, temperature=temperature, wait=wait).text)[1]


def split_reasoning(text: str) -> tuple[str | None, str]:
    """(reasoning, answer): inline `<think>...</think>` taken out of a reply, as reasoning parsers do.

    A reply that starts with <think> has its reasoning up to </think>; one with only a </think> (the opening tag
    was in the chat template) has it before. Without </think>, the whole reply after <think> is reasoning.
    """
    start = text.lstrip()
    if start.startswith(THINK):
        inside, ended, after = start[len(THINK):].partition(END_THINK)
        return inside.strip(), after.strip() if ended else ""
    if END_THINK in text and THINK not in text:
        before, _, after = text.partition(END_THINK)
        return before.strip(), after.strip()
    return None, text


def complete(prompt: str, *, model: str | None = None, temperature: float = TEMPERATURE,
             wait: float | None = None) -> Completion:
    """Ask the live model once (no cache): the whole exchange, retries included, within `wait` seconds
    (default SPEC2CODE_LIVE_WAIT).

    Configured by OPENAI_API_KEY, OPENAI_BASE_URL and SPEC2CODE_MODEL_NAME. Every failure is a one-line ModelError
    that says what happened, after how long, and what to try; never an SDK traceback.
    """
    model = model or settings.get("SPEC2CODE_MODEL_NAME")
    wait = settings.get("SPEC2CODE_LIVE_WAIT") if wait is None else float(wait)
    key = settings.get("OPENAI_API_KEY")
    if not key:
        raise ModelError(
            "The live model needs OPENAI_API_KEY. Set it (export OPENAI_API_KEY=...; any value works for a local "
            f"server without auth such as Ollama), {OFFLINE_HINT}"
        )
    try:
        import openai
    except ImportError:
        raise ModelError(f"The live model needs the openai package: pip install openai, {OFFLINE_HINT}") from None

    base_url = settings.get("OPENAI_BASE_URL")  # None: the SDK's default, https://api.openai.com/v1
    url = (base_url or "https://api.openai.com/v1").rstrip("/")
    client = openai.OpenAI(api_key=key, base_url=base_url, max_retries=0)
    started, tries = time.monotonic(), 0
    while True:
        left = wait - (time.monotonic() - started)
        tries += 1
        try:
            timeout = openai.Timeout(left, connect=min(CONNECT_TIMEOUT, left))
            response = client.with_options(timeout=timeout).chat.completions.create(
                model=model,
                messages=[{"role": "user", "content": prompt}],
                temperature=temperature,
            )
            break
        except openai.OpenAIError as exc:
            elapsed = time.monotonic() - started
            if tries <= MAX_RETRIES and _worth_retrying(exc) and wait - elapsed > RETRY_PAUSE + 1.0:
                time.sleep(RETRY_PAUSE)
                continue
            raise ModelError(f"The model server at {url} {_explain(exc, model, elapsed, wait)}") from None
    try:
        message = response.choices[0].message
        text = message.content
    except (AttributeError, IndexError, TypeError):
        message, text = None, None
    reasoning = getattr(message, "reasoning_content", None) or getattr(message, "reasoning", None)
    if not isinstance(text, str) or (not text and not reasoning):
        raise ModelError(f"The model server at {url} sent a reply with no text for model {model!r}. Try again.")
    return Completion(text, reasoning if isinstance(reasoning, str) else None, _tokens(response))


def _tokens(response) -> dict | None:
    usage = getattr(response, "usage", None)
    prompt, completion = getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)
    if isinstance(prompt, int) and isinstance(completion, int):
        return {"prompt": prompt, "completion": completion}
    return None


def _worth_retrying(exc: Exception) -> bool:
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return False  # the wait is what it is: a second try would only double it
    if isinstance(exc, openai.APIConnectionError):
        return True
    return isinstance(exc, openai.APIStatusError) and (exc.status_code == 429 or exc.status_code >= 500)


def _explain(exc: Exception, model: str, elapsed: float, wait: float) -> str:
    """The rest of the one-line message after "The model server at URL": what happened, after how long, what to try."""
    import openai

    why = _why(exc)
    took = f"{elapsed:.1f} s" if elapsed < 10 else f"{elapsed:.0f} s"
    if isinstance(exc, openai.APITimeoutError):
        if _is_connect_timeout(exc):
            return (
                f"could not be reached: no connection after {took} (the connection timed out). Is it running, "
                f"and is OPENAI_BASE_URL right? {OFFLINE_HINT[0].upper()}{OFFLINE_HINT[1:]}"
            )
        return (
            f"accepted the request but sent no answer in {took} (SPEC2CODE_LIVE_WAIT={wait:g} s allows for the whole "
            "ask). Try again, a smaller model, or a longer SPEC2CODE_LIVE_WAIT."
        )
    if isinstance(exc, openai.APIConnectionError):
        return f"could not be reached ({why}). Is it running? Check OPENAI_BASE_URL, {OFFLINE_HINT}"
    if isinstance(exc, openai.AuthenticationError):
        return f"refused the API key (HTTP 401: {why}). Check OPENAI_API_KEY."
    if isinstance(exc, openai.NotFoundError):
        return (
            f"answered HTTP 404 for model {model!r} ({why}). Check that SPEC2CODE_MODEL_NAME is a model it serves "
            "and that OPENAI_BASE_URL ends in /v1."
        )
    if isinstance(exc, openai.RateLimitError):
        return f"is rate-limiting you (HTTP 429: {why}). Wait and try again, or replay a recorded cache."
    if isinstance(exc, openai.APIStatusError):
        return f"answered HTTP {exc.status_code} ({why}). Try again later, {OFFLINE_HINT}"
    return f"failed: {why}. Try again, {OFFLINE_HINT}"


def _is_connect_timeout(exc: BaseException) -> bool:
    """The SDK raises one timeout error for all; its cause says whether the connection or the answer timed out."""
    cause = exc.__cause__ or exc.__context__
    return cause is not None and type(cause).__name__ in ("ConnectTimeout", "PoolTimeout")


def _why(exc: BaseException, limit: int = 160) -> str:
    """What went wrong, on one short line: the server's error message, or the exception's (or its cause's)."""
    body = getattr(exc, "body", None)
    text = body.get("message") if isinstance(body, dict) else None
    if not isinstance(text, str) or not text.strip():
        text = getattr(exc, "message", None) or str(exc)
        cause = exc.__cause__ or exc.__context__
        if cause is not None and text in ("Connection error.", "Request timed out."):
            text = f"{text.rstrip('.')}: {cause}"
    return one_line(text, limit)
