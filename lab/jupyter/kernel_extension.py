"""The lab kernel's extension: the lab's own errors (LabError) show in a notebook as their message, not a traceback."""

from __future__ import annotations

from .displays import COLOURS, Message


def load_ipython_extension(shell) -> None:
    """Loaded by the lab's kernel at start: the lab's own errors (LabError) show as their message, not a traceback.

    A LabError's message says what to fix (a mistyped SPEC2CODE_ setting, a live model with no key); the traceback
    under it would only show the lab's insides. The cell still counts as failed, so "Run All" stops there.

    The kernel also leaves the Python version out of the language_info it reports. JupyterLab writes that into
    every notebook it opens; without the version it is what the committed notebooks already hold, whatever the
    Python, so opening a notebook changes nothing and it does not show as unsaved.
    """
    from harness.errors import LabError

    def show(shell, etype, value, tb, tb_offset=None):
        from IPython.display import display

        display(Message(f"{etype.__name__}: {value}", colour=COLOURS["failed"]))

    shell.set_custom_exc((LabError,), show)
    kernel = getattr(shell, "kernel", None)
    if kernel is not None:
        kernel.language_info = {k: v for k, v in kernel.language_info.items() if k != "version"}
