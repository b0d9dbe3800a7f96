"""The live backend: any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, ...) through the `openai` SDK."""

from __future__ import annotations

from .. import settings
from ..errors import ModelError
from ..text import one_line

TEMPERATURE = 0.2  # a little variety between samples, mostly stable answers
CONNECT_TIMEOUT = 5.0  # seconds to reach the server; a dead server fails fast
READ_TIMEOUT = 120.0  # seconds for one reply; a local model on a CPU can be slow
MAX_RETRIES = 1  # the SDK's own retries on connection errors, 429 and 5xx

OFFLINE_HINT = "or use the offline model: unset SPEC2CODE_MODEL."


def reply(
    prompt: str, *, model: str | None = None, temperature: float = TEMPERATURE, timeout: float = READ_TIMEOUT
) -> str:
    """Ask the live model once (no cache) and return the text of its reply.

    Configured by OPENAI_API_KEY, OPENAI_BASE_URL and SPEC2CODE_MODEL_NAME. Every failure is a one-line ModelError
    that says what happened and what to try, never an SDK traceback.
    """
    model = model or settings.get("SPEC2CODE_MODEL_NAME")
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
    try:
        client = openai.OpenAI(
            api_key=key,
            base_url=base_url,
            timeout=openai.Timeout(timeout, connect=min(CONNECT_TIMEOUT, timeout)),
            max_retries=MAX_RETRIES,
        )
        response = client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": prompt}],
            temperature=temperature,
        )
    except openai.OpenAIError as exc:
        raise ModelError(f"The model server at {url} {_explain(exc, model, timeout)}") from None
    try:
        text = response.choices[0].message.content
    except (AttributeError, IndexError, TypeError):
        text = None
    if not isinstance(text, str):
        raise ModelError(f"The model server at {url} sent a reply with no text for model {model!r}. Try again.")
    return text


def _explain(exc: Exception, model: str, timeout: float) -> str:
    """The rest of the one-line message after "The model server at URL": what happened, what to try."""
    import openai

    why = _why(exc)
    if isinstance(exc, openai.APITimeoutError):
        return f"did not answer within {timeout:g} s. Try again, or a smaller model."
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
