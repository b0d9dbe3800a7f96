"""The lab's one exception base class, and the errors built on it."""


class LabError(Exception):
    """Something the learner or instructor can fix; the message says how."""


class SettingsError(LabError):
    """An environment variable or option has a value the lab does not know."""


class ModelError(LabError):
    """The model could not be asked: no key, no server, or a miss in replay mode."""
