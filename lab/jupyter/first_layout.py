"""Where one install serves many students: the lab's first layout (the start notebook, agent.py beside it) put in
each student's home, with their folder's paths, by a server extension when their server starts, unless JupyterLab
already keeps a layout of theirs there. `spec2code lab --setup-only` enables it for such an install."""

from __future__ import annotations

import json
from pathlib import Path

from harness.errors import LaunchError
from harness.settings import STUDENT_ROOT

from . import install

FILES = ("notebooks/", "lab/")  # the layout's paths, from the student's folder


def _jupyter_server_extension_points():
    return [{"module": "lab.jupyter.first_layout"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """At the server's start: the lab's layout in JupyterLab's folder of layouts, if the student has none."""
    if not install.SHARED:
        return  # a clone: `spec2code lab --setup-only` put the layout in the project's .cache/ already
    try:
        under = STUDENT_ROOT.relative_to(Path(serverapp.root_dir).expanduser().resolve()).as_posix()
    except ValueError:
        serverapp.log.warning(f"The lab's layout is not set up: {STUDENT_ROOT} is outside {serverapp.root_dir}.")
        return
    try:
        serverapp.log.info(install.install_workspace(workspaces_folder(serverapp.config), placed(under)))
    except LaunchError as exc:
        serverapp.log.warning(str(exc))


def workspaces_folder(config) -> Path:
    """The folder JupyterLab keeps layouts in, as it decides it: its setting, else its default (in the home)."""
    from jupyterlab.commands import get_workspaces_dir

    configured = config.get("LabApp", {}).get("workspaces_dir")
    return Path(configured or get_workspaces_dir()).expanduser()


def placed(under: str) -> dict:
    """The lab's layout with each file's path (and the file browser's folder) taken from `under`."""
    workspace = _moved(json.loads(install.WORKSPACE.read_text(encoding="utf-8")), under)
    workspace["data"]["file-browser-filebrowser:cwd"]["path"] = "" if under == "." else under
    return workspace


def _moved(value, under: str):
    if isinstance(value, dict):
        return {_moved(key, under): _moved(item, under) for key, item in value.items()}
    if isinstance(value, list):
        return [_moved(item, under) for item in value]
    if isinstance(value, str) and under != ".":
        kind, colon, path = value.rpartition(":")  # "notebook:notebooks/00_start.ipynb", or a bare path
        if path.startswith(FILES):
            return f"{kind}{colon}{under}/{path}"
    return value
