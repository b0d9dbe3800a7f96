"""The model: `ask(prompt)` returns its reply. Offline and scripted by default (offline.py); live replies
(live.py) are cached (cache.py). `respond` says more about one reply, for the lab's audit trail."""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

from .. import settings
from ..errors import ModelError, SettingsError
from . import cache

PERSONAS = {"offline": "honest", "gaming": "gaming"}  # SPEC2CODE_MODEL -> persona of the scripted model


@dataclass(frozen=True)
class Reply:
    """One reply and how it came: what `ask` returns is `text`; the rest is for the audit trail."""

    text: str  # the answer (a reasoning model's inline <think>...</think> taken out)
    backend: str  # "offline", "gaming", "live" or "replay"
    model: str  # the persona of the scripted model, or the live model's name
    sample: int
    cached: bool  # came from the reply cache
    seconds: float
    tokens: dict | None = None  # {"prompt": n, "completion": m} when the server says
    reasoning: str | None = None  # a reasoning model's thinking, kept apart from the answer


def ask(prompt: str, *, sample: int = 0) -> str:
    """Ask the model and return its reply (a string, usually with a ```python fenced block).

    By default the model is a scripted offline stand-in: deterministic, instant, no network or key. SPEC2CODE_MODEL
    picks the backend on every call: `offline` (default), `gaming` (a scripted model that tries to game the tests)
    or `live` (an OpenAI-compatible server; see OPENAI_API_KEY, OPENAI_BASE_URL, SPEC2CODE_MODEL_NAME).

    Only live replies are cached (in SPEC2CODE_CACHE_DIR): the scripted replies are computed, so caching them would
    only hide changes to the script. The same prompt and `sample` give the cached reply again; another `sample`
    index asks for another, separately cached, reply. With SPEC2CODE_REPLAY=1 replies come only from the cache and
    a prompt that was never recorded is a ModelError. For the scripted models, `sample` 1, 2, ... gives other
    candidate solutions.

    Example::

        import harness
        reply = harness.ask("Write pytest tests for this spec:\\n" + harness.SPEC)
        print(reply)  # prose and a ```python block of test functions
    """
    return answer(prompt, backend=settings.get("SPEC2CODE_MODEL"), sample=sample)


def answer(prompt: str, *, backend: str, sample: int = 0) -> str:
    """The reply of one named backend ("offline", "gaming" or "live"), whatever SPEC2CODE_MODEL says: what `ask`
    does, for the lab's own tools (a try with `--model gaming`) that choose the model per call."""
    return respond(prompt, backend=backend, sample=sample).text


def respond(prompt: str, *, backend: str, sample: int = 0) -> Reply:
    """`answer`, with how the reply came: from which backend, the cache or not, how fast, at what cost."""
    if not isinstance(prompt, str):
        raise TypeError(f"ask() takes the prompt as a str, not {type(prompt).__name__}: build one string first.")
    if not isinstance(sample, int) or isinstance(sample, bool) or sample < 0:
        raise TypeError(f"ask(..., sample=) takes a whole number 0, 1, 2, ..., not {sample!r}.")
    if backend not in settings.MODELS:
        raise SettingsError(f"There is no model {backend!r}: use one of {', '.join(settings.MODELS)}.")
    started = time.perf_counter()
    if settings.get("SPEC2CODE_REPLAY"):
        if backend != "live" and settings.is_set("SPEC2CODE_MODEL"):
            raise SettingsError(
                f"SPEC2CODE_REPLAY=1 replays recorded live replies, but SPEC2CODE_MODEL={backend}. "
                "Unset one of them (or set SPEC2CODE_MODEL=live)."
            )
        return _live(prompt, sample, replay=True, started=started)
    if backend == "live":
        return _live(prompt, sample, replay=False, started=started)
    from . import offline

    text = offline.reply(prompt, persona=PERSONAS[backend], sample=sample)
    return Reply(text, backend, PERSONAS[backend], sample, False, time.perf_counter() - started)


def _live(prompt: str, sample: int, *, replay: bool, started: float) -> Reply:
    from . import live as live_model

    name = settings.get("SPEC2CODE_MODEL_NAME")
    cache_dir = settings.get("SPEC2CODE_CACHE_DIR")
    req = cache.request("live", name, prompt, {"temperature": live_model.TEMPERATURE}, sample)
    raw, tokens, field_reasoning = cache.lookup(req, cache_dir), None, None
    cached = raw is not None
    if not cached:
        if replay:
            raise ModelError(_replay_miss(name, sample, cache_dir))
        completion = live_model.complete(prompt, model=name, temperature=live_model.TEMPERATURE)
        raw, tokens, field_reasoning = completion.text, completion.tokens, completion.reasoning
    reasoning, text = live_model.split_reasoning(raw)
    if not text.strip() and reasoning:
        raise ModelError(live_model.ONLY_REASONING.format(model=name))
    if not cached:
        _store(req, raw, cache_dir)
    return Reply(text, "replay" if replay else "live", name, sample, cached, time.perf_counter() - started,
                 tokens, reasoning or field_reasoning)


def _store(req: dict, raw: str, cache_dir) -> None:
    try:
        cache.store(req, raw, cache_dir)
    except OSError as exc:  # the reply is still good; only its copy is lost
        warnings.warn(
            f"Could not save the reply in the cache {cache_dir} ({exc.strerror or exc}); "
            "set SPEC2CODE_CACHE_DIR to a folder you can write to.",
            cache.CacheWarning,
            stacklevel=4,
        )


def _replay_miss(name: str, sample: int, cache_dir) -> str:
    recorded = cache.models(cache_dir)
    if recorded is None:
        found = f"the cache folder {cache_dir} does not exist"
    elif not recorded:
        found = f"the cache folder {cache_dir} is empty"
    else:
        found = f"{cache_dir} holds " + ", ".join(
            f"{n} {'entry' if n == 1 else 'entries'} for model {m!r}" for m, n in sorted(recorded.items())
        )
        if name not in recorded:
            found += f" (set SPEC2CODE_MODEL_NAME={sorted(recorded, key=recorded.get)[-1]} to use them)"
    return (
        f"Replay mode (SPEC2CODE_REPLAY=1): this prompt for model {name!r} (sample {sample}) is not in the recorded "
        f"cache; {found}. Point SPEC2CODE_CACHE_DIR at the class cache, or record it: run once with "
        "SPEC2CODE_MODEL=live and OPENAI_API_KEY set, without SPEC2CODE_REPLAY."
    )
