"""What a run's own user must reach when the lab runs as root: a scratch folder outside a private TMPDIR.

Loaded by the sandbox server by name; it imports nothing of the lab.
"""

from __future__ import annotations

import os
import stat

SHARED = ("/tmp", "/var/tmp", "/dev/shm")  # folders every user can reach on most machines, tried in this order


def readable_by_all(path) -> bool:
    """True if any user can read `path`: the file, and every folder on the way to it."""
    path = os.path.abspath(path)
    while True:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return False
        if not mode & (stat.S_IXOTH if stat.S_ISDIR(mode) else stat.S_IROTH):
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def scratch() -> str:
    """The folder to make run folders in when runs have users of their own: the temporary folder if every user can
    reach it, else (a private TMPDIR, as pam_tmpdir sets it) the first shared folder that they can."""
    import tempfile

    for folder in (tempfile.gettempdir(), *SHARED):
        if os.path.isdir(folder) and readable_by_all(folder):
            return folder
    raise OSError(f"other users can reach neither the temporary folder nor any of {', '.join(SHARED)}")
