"""Placeholder: replaced by the model module (offline model, cache, live backend)."""


def ask(prompt: str) -> str:
    from .offline_model import reply

    return reply(prompt)
