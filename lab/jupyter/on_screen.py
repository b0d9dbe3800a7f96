"""The agent.py a cell runs beside: wait for the lab's extension to save its tab, or say which text the cell used.

When a check, try or progress cell runs while an agent.py tab has unsaved edits, the lab's JupyterLab extension
saves that tab and sends its text with the cell (in the cell's metadata, under SCREEN_KEY: a list of
{"path", "text", "saving"}, the path as JupyterLab names it). Run means save and run: the cell waits here until the
file on disk holds what the student saw, so it never grades an older file than the one on screen. Where the save
was not made (the file changed on disk too, say by `spec2code reset`) or did not land in time, the cell says so in
its own output.
"""

from __future__ import annotations

import time
from pathlib import Path

from harness import settings

SCREEN_KEY = "spec2code_unsaved"  # the key the extension (labextension/src/index.ts) sets; one home each side
PATIENCE = 3.0  # seconds a cell waits for the extension's save to reach the disk
POLL = 0.05


def tabs_sent() -> list[dict]:
    """What the extension sent with the cell being run: the unsaved agent.py tabs; [] outside JupyterLab."""
    try:
        from IPython import get_ipython

        kernel = getattr(get_ipython(), "kernel", None)
        sent = kernel.get_parent("shell").get("metadata", {}).get(SCREEN_KEY) if kernel else None
    except Exception:  # noqa: BLE001 - no kernel, an older kernel: nothing was sent
        return []
    if not isinstance(sent, list):
        return []
    return [t for t in sent if isinstance(t, dict) and isinstance(t.get("path"), str) and isinstance(t.get("text"), str)]


def the_tab_of(path: Path, tabs: list[dict]) -> dict | None:
    """The tab showing `path`: its JupyterLab path is relative to the server's folder, which holds the file. Of tabs
    whose paths all end the file's path (`agent.py` and `lab/agent.py`), the longest names it most closely."""
    wanted = Path(path).resolve().as_posix()
    found = [t for t in tabs if wanted == t["path"] or wanted.endswith("/" + t["path"].lstrip("/"))]
    return max(found, key=lambda t: len(t["path"]), default=None)


def settle(path: Path, tabs: list[dict] | None = None, patience: float = PATIENCE) -> str:
    """Wait until `path` on disk holds what its tab showed when the cell was run; "" once it does (or the tab had
    nothing unsaved), else a note for the cell's output saying which text the cell used and what to do."""
    tab = the_tab_of(path, tabs_sent() if tabs is None else tabs)
    if tab is None:
        return ""
    before = _read(path)
    if before == tab["text"]:
        return ""
    shown = settings.shown(path)
    if tab.get("saving") is False:
        return (f"Your {path.name} tab has unsaved edits, and {shown} changed on disk too (by spec2code reset?), so "
                "your edits were not saved for you. This cell used the file on disk. To keep your edits, save them "
                "with Ctrl+S in that tab; to see the file on disk, use the warning at the bottom right.")
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if _read(path) != before:  # the save landed (with what was typed since, if anything): use it
            return ""
        time.sleep(POLL)
    return (f"Your {path.name} tab had unsaved edits, and saving them did not finish within {patience:g} s, so this "
            f"cell used {shown} as last saved. Save it (Ctrl+S in its tab) and run the cell again.")


def say_if_unsettled(path: Path) -> str:
    """`settle`, with its note (if any) shown in the running cell's output, above what the cell shows."""
    note = settle(path)
    if note:
        from IPython.display import display

        from .displays import Message

        display(Message(note))
    return note


def _read(path: Path) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
