"""What the lab provides: the model (`ask`), the tasks (`SPEC`, `HOLDOUT_TESTS`, `tasks`), the sandbox (`run`),
and what is measured with it (`score_tests`, `matrix`)."""

from . import tasks
from .errors import LabError, ModelError, SettingsError
from .model import ask
from .sandbox import run
from .score import matrix, score_tests
from .tasks import HOLDOUT_TESTS, SPEC

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
