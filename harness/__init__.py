"""What the lab provides: the model (`ask`), the tasks (`SPEC`, `HOLDOUT_TESTS`, `tasks`), the sandbox (`run`),
and what is measured with it (`score_tests`, `matrix`)."""

import importlib

from .errors import LabError, ModelError, SettingsError

__all__ = [
    "HOLDOUT_TESTS",
    "LabError",
    "ModelError",
    "SPEC",
    "SettingsError",
    "ask",
    "matrix",
    "run",
    "score_tests",
    "tasks",
]

# Each name is imported where it lives on first use (PEP 562): an agent's process, which needs only what its
# agent uses (the lab puts its own `ask` and `run` in place), does not pay for the model, tasks and sandbox each time.
_HOME = {"HOLDOUT_TESTS": "tasks", "SPEC": "tasks", "ask": "model", "matrix": "score", "run": "sandbox",
         "score_tests": "score"}


def __getattr__(name: str):
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value
        return value
    if not name.startswith("_"):
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
