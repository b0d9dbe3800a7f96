"""The `spec2code` command: one entry point, each subcommand in its own module."""

from __future__ import annotations

import contextlib
import importlib
import signal
import sys
import threading

# name -> (module, one-line help). Each module has main(argv) -> exit code.
COMMANDS = {
    "lab": ("lab.jupyter.launcher", "set up and open the lab in JupyterLab"),
    "try": ("lab.commands.try_agent", "run an agent on the spec and show each round"),
    "gap": ("lab.commands.gap", "visible versus held-out pass rates across the tasks, as a table and a chart"),
    "trail": ("lab.commands.trail", "print an audit trail (spec2code try --trail FILE) as a timeline"),
    "check": ("lab.commands.check", "grade the steps of an agent.py"),
    "compare": ("lab.commands.compare", "show your function beside the reference"),
    "reset": ("lab.commands.reset", "save your agent.py aside and start over from the stubs"),
    "grade": ("lab.commands.grade", "grade many submissions (CSV, JSON, JUnit XML, Gradescope)"),
    "report": ("lab.commands.report", "a class report page from grades.json (spec2code grade --format json)"),
    "autograder": ("lab.commands.autograder", "build a Gradescope autograder zip or a GitHub Classroom workflow"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: spec2code COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<{width}}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "Run 'spec2code COMMAND --help' for the options of one command."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"spec2code: unknown command {name!r}.\n\n{usage()}", file=sys.stderr)
        return 2
    from harness.errors import LabError
    from harness.settings import check

    try:
        check()  # a misspelt SPEC2CODE_ variable fails here, whatever the command
        with _sigterm_as_ctrl_c(name != "lab"):  # the lab's launcher passes SIGTERM on to its server itself
            return importlib.import_module(COMMANDS[name][0]).main(rest)
    except LabError as e:
        print(f"spec2code {name}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nspec2code {name}: interrupted", file=sys.stderr)
        return 130


@contextlib.contextmanager
def _sigterm_as_ctrl_c(wanted: bool):
    """SIGTERM (`kill`, `timeout`, a grading platform's time limit) stops the command as Ctrl-C does, so that its
    clean-up runs: nothing it started (an agent's child, a daemon of that child's user) outlives it."""
    if not wanted or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _interrupt(signum, frame):
    raise KeyboardInterrupt
