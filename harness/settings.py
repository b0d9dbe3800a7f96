"""Every environment variable the lab reads, with its default and meaning; and the paths everything starts from:
the project folder (the install), the student's folder (their own files) and the agent.py in use."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from . import levels
from .errors import SettingsError

PREFIX = "SPEC2CODE_"

# name: (default as shown to people, one-line meaning). Read at call time with get(name).
VARIABLES = {
    "SPEC2CODE_MODEL": (
        "offline",
        "which model ask() uses: offline (scripted, no network), gaming (scripted, games the tests) or live",
    ),
    "SPEC2CODE_MODEL_NAME": ("gpt-4o-mini", "model name the live backend asks for, e.g. llama3.1 on Ollama"),
    "SPEC2CODE_CACHE_DIR": (
        ".cache/spec2code",
        "folder of cached live replies: under the student's folder, or ~/.cache/spec2code outside a source tree",
    ),
    "SPEC2CODE_REPLAY": ("0", "1 = answer only from the recorded cache and never call the live model"),
    "SPEC2CODE_AGENT": (
        "lab/agent.py",
        "the agent.py that the commands, checks and notebooks use; a relative path is taken from the student's folder",
    ),
    "SPEC2CODE_STUDENT_DIR": (
        "(the project folder)",
        "the folder of the student's own files (lab/agent.py, notebooks/, .cache/) where the lab is installed once "
        "for many, e.g. ~/spec2code-lab on a JupyterHub; read when the lab starts",
    ),
    "SPEC2CODE_TIMEOUT": ("10", "seconds one sandboxed test run may take"),
    "SPEC2CODE_ISOLATION": (
        "auto",
        f"auto = the strongest walls this machine allows for sandboxed code; {levels.LISTED} = at most that level "
        f"({levels.PROCESS} = process limits only)",
    ),
    "SPEC2CODE_REQUIRE_ISOLATION": (
        "(unset)",
        f"{levels.LISTED}: check and grade refuse to grade where the walls are weaker (see The sandbox)",
    ),
    "SPEC2CODE_SEED": (
        "(fresh each time)",
        "a whole number: the checks draw their inputs from it, for a grading you can repeat exactly; keep it secret",
    ),
    "SPEC2CODE_SANDBOX_DEBUG": ("(unset)", "any value: the sandbox keeps its own output (for debugging the lab itself)"),
    "SPEC2CODE_LIVE_WAIT": ("120", "seconds the live model may take to answer one ask, retries included"),
    "SPEC2CODE_TRAIL": (
        "(unset)",
        "a file: the lab appends every ask and run of an agent to it, as JSON lines (read it with spec2code trail)",
    ),
    "SPEC2CODE_AUTOGRADER_ROOT": (
        "/autograder",
        "read only by the Gradescope zip's scripts: the folder they use as /autograder, to try the zip on any machine",
    ),
    "OPENAI_API_KEY": ("(none)", "API key for the live model; any non-empty value for a local server without auth"),
    "OPENAI_BASE_URL": (
        "https://api.openai.com/v1",
        "OpenAI-compatible endpoint of the live model, e.g. http://localhost:11434/v1 for Ollama",
    ),
}

MODELS = ("offline", "gaming", "live")
ISOLATION_LEVELS = ("auto", *levels.NAMES)  # what SPEC2CODE_ISOLATION may be
_YES, _NO = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def table() -> list[tuple[str, str, str]]:
    """The variables as (name, default, description) rows, for the README and --help texts."""
    return [(name, default, meaning) for name, (default, meaning) in VARIABLES.items()]


def help_text() -> str:
    """The variables as an indented plain-text block for a command's --help."""
    lines = ["environment variables:"]
    for name, default, meaning in table():
        lines.append(f"  {name} (default: {default})\n      {meaning}")
    return "\n".join(lines)


def check(environ=None) -> None:
    """Raise SettingsError if any SPEC2CODE_* variable is unknown (a typo) or has a bad value."""
    environ = os.environ if environ is None else environ
    for name in sorted(environ):
        if name.startswith(PREFIX):
            if name not in VARIABLES:
                raise SettingsError(_unknown(name))
            _parse(name, environ[name])


def get(name: str, environ=None):
    """The current value of one variable, parsed: str, bool (REPLAY), float (TIMEOUT) or Path (CACHE_DIR).

    Read at call time, so a test or `spec2code try --model live` can set os.environ first.
    Every SPEC2CODE_* variable is checked on each call, so a typo fails loudly wherever it is first noticed.
    """
    if name not in VARIABLES:
        raise KeyError(_unknown(name))
    environ = os.environ if environ is None else environ
    check(environ)
    raw = environ.get(name, "").strip()
    if name.startswith(PREFIX):
        return _parse(name, raw)
    return raw or None  # OPENAI_*: left to the live backend


def is_set(name: str, environ=None) -> bool:
    """True if the variable is set to a non-empty value (rather than left at its default)."""
    environ = os.environ if environ is None else environ
    return bool(environ.get(name, "").strip())


PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the folder holding harness/, checks/, lab/, solutions/
# STUDENT_ROOT and LAB_AGENT (the student's folder and file) are set at the end, once the setting can be parsed.


def student_root(environ=None) -> Path:
    """The folder of the student's own files: lab/agent.py, notebooks/, .cache/ (live replies, layouts).

    The project folder itself, as in a student's clone; or SPEC2CODE_STUDENT_DIR, where one install serves many
    students (a JupyterHub) and each keeps only their own files in their home. A bad value is said by check().
    """
    environ = os.environ if environ is None else environ
    try:
        given = _parse("SPEC2CODE_STUDENT_DIR", environ.get("SPEC2CODE_STUDENT_DIR", ""))
    except SettingsError:
        given = None
    return given.resolve() if given else PROJECT_ROOT


REFERENCE_AGENT = PROJECT_ROOT / "solutions" / "agent.py"  # the lab's finished agent


def is_source_tree() -> bool:
    """True when the lab runs from its own folder (pyproject.toml beside harness/), not from an installed copy."""
    return (PROJECT_ROOT / "pyproject.toml").is_file()


def agent_path(given=None, environ=None) -> Path:
    """The agent.py to use, as an absolute path: the one place that decides it.

    `given` (a command's --agent, a notebook helper's argument) is taken as a person typed it: relative to the
    current folder. Otherwise SPEC2CODE_AGENT, relative to the student's folder, so the commands, the notebooks
    (which run in notebooks/) and the grader name the same file from any folder. Otherwise lab/agent.py there.
    """
    if given:
        return Path(given).expanduser().resolve()
    environ = os.environ if environ is None else environ
    raw = environ.get("SPEC2CODE_AGENT", "").strip()
    if not raw:
        return LAB_AGENT
    path = Path(raw).expanduser()
    return (path if path.is_absolute() else STUDENT_ROOT / path).resolve()


def shown(path) -> str:
    """A path as the learner knows it: relative to their folder (or the project's) when it is inside it, else whole."""
    path = Path(path)
    for root in dict.fromkeys((STUDENT_ROOT, PROJECT_ROOT)):
        try:
            return path.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            continue
    return str(path)


def default_cache_dir() -> Path:
    """`.cache/spec2code` in the student's folder (given, or a project folder with pyproject.toml above harness/),
    else ~/.cache/spec2code."""
    if STUDENT_ROOT != PROJECT_ROOT or is_source_tree():
        return STUDENT_ROOT / ".cache" / "spec2code"
    return Path.home() / ".cache" / "spec2code"


def _parse(name: str, raw: str):
    raw = raw.strip()
    if name == "SPEC2CODE_MODEL":
        value = raw.lower() or "offline"
        if value not in MODELS:
            hint = difflib.get_close_matches(value, MODELS, n=1)
            guess = f" Did you mean {hint[0]!r}?" if hint else ""
            choices = " | ".join(MODELS)
            raise SettingsError(f"SPEC2CODE_MODEL={raw!r} is not a model the lab knows: use {choices}.{guess}")
        return value
    if name == "SPEC2CODE_REPLAY":
        value = raw.lower() or "0"
        if value not in _YES + _NO:
            raise SettingsError(f"SPEC2CODE_REPLAY={raw!r} is not 1 or 0: set it to 1 to replay, or unset it.")
        return value in _YES
    if name in ("SPEC2CODE_TIMEOUT", "SPEC2CODE_LIVE_WAIT"):
        try:
            value = float(raw or VARIABLES[name][0])
        except ValueError:
            value = float("nan")
        if not 0 < value < float("inf"):
            raise SettingsError(f"{name}={raw!r} is not a positive number of seconds, e.g. {VARIABLES[name][0]}.")
        return value
    if name == "SPEC2CODE_TRAIL":
        return Path(raw).expanduser() if raw else None
    if name == "SPEC2CODE_ISOLATION":
        value = raw.lower() or "auto"
        if value not in ISOLATION_LEVELS:
            raise SettingsError(f"SPEC2CODE_ISOLATION={raw!r} is not one of: {' | '.join(ISOLATION_LEVELS)}.")
        return value
    if name == "SPEC2CODE_CACHE_DIR":
        return Path(raw).expanduser() if raw else default_cache_dir()
    if name == "SPEC2CODE_SANDBOX_DEBUG":
        return raw  # "" when unset
    if name == "SPEC2CODE_REQUIRE_ISOLATION":
        value = raw.lower()
        if value and value not in levels.NAMES:
            raise SettingsError(f"SPEC2CODE_REQUIRE_ISOLATION={raw!r} is not one of: {' | '.join(levels.NAMES)}.")
        return value or None
    if name == "SPEC2CODE_STUDENT_DIR":
        if not raw:
            return None
        folder = Path(raw).expanduser()
        if not folder.is_absolute():  # read by every process of the lab, each in its own folder: never relative
            raise SettingsError(f"SPEC2CODE_STUDENT_DIR={raw!r} is not a whole path: give it from / or ~, "
                                "e.g. ~/spec2code-lab.")
        return folder
    if name == "SPEC2CODE_SEED":
        if not raw:
            return None
        if not raw.isdigit():
            raise SettingsError(f"SPEC2CODE_SEED={raw!r} is not a whole number, e.g. 20261201.")
        return int(raw)
    return raw or VARIABLES[name][0]


def _unknown(name: str) -> str:
    known = [n for n in VARIABLES if n.startswith(PREFIX)]
    hint = difflib.get_close_matches(name, known, n=1)
    guess = f"Did you mean {hint[0]}? " if hint else ""
    return f"Unknown setting {name}. {guess}The lab reads: {', '.join(known)}."


STUDENT_ROOT = student_root()  # fixed for the process, as the project folder is: its children inherit the setting
LAB_AGENT = STUDENT_ROOT / "lab" / "agent.py"  # the learner's file
