"""What the lab provides: the model (`ask`), the task (`SPEC`, `HOLDOUT_TESTS`) and the sandbox (`run`)."""

from . import tasks
from .errors import LabError, ModelError, SettingsError
from .model import ask
from .sandbox import run
from .tasks import HOLDOUT_TESTS, SPEC

__all__ = [
    "HOLDOUT_TESTS",
    "LabError",
    "ModelError",
    "SPEC",
    "SettingsError",
    "ask",
    "run",
    "tasks",
]
