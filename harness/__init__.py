"""What the lab provides: the model (`ask`), the tasks (`SPEC`, `HOLDOUT_TESTS`, `tasks`), the sandbox (`run`),
and what is measured with it (`score_tests`, `matrix`)."""

from .errors import LabError, ModelError, SettingsError
from .exports import on_first_use

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

# Each name is imported where it lives on first use: an agent's process, which needs only what its agent uses (the
# lab puts its own `ask` and `run` in place), does not pay for the model, the tasks and the sandbox each time.
__getattr__, __dir__ = on_first_use(__name__, {"HOLDOUT_TESTS": "tasks", "SPEC": "tasks", "ask": "model",
                                               "matrix": "score", "run": "sandbox", "score_tests": "score"})
