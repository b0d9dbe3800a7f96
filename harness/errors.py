"""The lab's one exception family: every error a learner or instructor can fix is a LabError whose message says how."""


class LabError(Exception):
    """Something the learner or instructor can fix; the message is one line that says how."""


class SettingsError(LabError):
    """An environment variable or option has a value the lab does not know."""


class ModelError(LabError):
    """The model could not be asked: no key, no server, or a miss in replay mode."""


class UsageError(LabError):
    """A command line the lab cannot act on: a missing file, a bad option value."""


class LaunchError(LabError):
    """JupyterLab could not be set up or started."""


class AgentFileError(LabError):
    """An agent.py cannot be used as it is: missing, not Python source, or it fails to load."""


class NotPythonSource(AgentFileError):
    """A file Python itself could not read as source code: another encoding, a zip, a binary."""
