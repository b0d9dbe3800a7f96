"""What `spec2code lab --setup-only` puts in place for JupyterLab: the lab's kernel, settings, server settings, the
reload extension and the default layout. Each step is safe to run again: what is already in place is left alone.

Everything but the layout goes into the Python environment's own folders (sys.prefix), so JupyterLab finds it
however it is started: by `spec2code lab`, or by a JupyterHub that runs this environment's server. Installed once for
many students (SPEC2CODE_STUDENT_DIR set), the environment names no folder of layouts: each student's is JupyterLab's
own, in their home, where a server extension puts the lab's when their server starts (first_layout.py).
"""

from __future__ import annotations

import filecmp
import hashlib
import json
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from harness.errors import LaunchError
from harness.files import write_atomically
from harness.settings import PROJECT_ROOT, STUDENT_ROOT

HERE = Path(__file__).resolve().parent
KERNEL_NAME = "spec2code-lab"  # every notebook names this kernel
KERNEL_DISPLAY_NAME = "Spec to Code lab (Python 3)"
KERNEL_EXTENSION = "--IPKernelApp.extensions=lab.jupyter.kernel_extension"  # the lab's errors read as messages in a notebook
OVERRIDES = HERE / "overrides.json"  # JupyterLab settings for a quiet first run
WORKSPACE = HERE / "workspace.json"  # the layout a first `spec2code lab` opens: the start notebook, agent.py beside it
LABEXTENSION = HERE / "labextension"  # the reload extension's source (TypeScript); `make labextension` builds it
LABEXTENSION_BUILT = LABEXTENSION / "built"  # ... and its build, committed, so students never need node
LABEXTENSION_SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "src")  # what the build is made from
SOURCE_HASH = LABEXTENSION_BUILT / "source.sha256"  # the hash of those sources when the build was made
TERMINAL_RC = "spec2code-terminal.bashrc"  # how a terminal in the lab starts (see terminal_command)
STATE = STUDENT_ROOT / ".cache" / "jupyterlab"  # the lab's own JupyterLab folder: its layouts and the server's log
SHARED = STUDENT_ROOT != PROJECT_ROOT  # installed once for many students, each with a folder of their own

# The server's settings (jupyter_server_config.json). A session keeps the kernels of the notebooks in use, not one
# per notebook ever opened: an idle kernel is stopped, and when a cell runs so are the least recently used ones
# beyond the few the lab keeps (lab.jupyter.kernels). Every check and try cell stands on its own, so a stopped
# kernel costs the student only a restart of a few seconds when they come back to that notebook.
SERVER_CONFIG = {
    "ServerApp": {"kernel_manager_class": "lab.jupyter.kernels.RecentKernels"},
    "MappingKernelManager": {
        "cull_idle_timeout": 600,  # seconds a kernel may sit idle before it is stopped (10 minutes)
        "cull_interval": 60,  # seconds between looks for idle kernels
        "cull_connected": True,  # stop it even while its notebook is open in a tab (the tab may be forgotten)
        "cull_busy": False,  # never stop a kernel that is running a cell
    },
    "ContentsManager": {  # files the file browser does not show: JupyterLab's own list, and the install's
        "hide_globs": ["__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", "*.egg-info", "node_modules"],
    },
}


def setup(prefix: str | Path | None = None, state: Path = STATE, *, shared: bool = SHARED) -> list[str]:
    """Put the lab's JupyterLab pieces in place under `prefix` (default: sys.prefix), its layout under `state`.

    `shared`: the environment serves many students (a JupyterHub), each with a home of their own, so it names no
    folder of layouts (which would be one student's, or the image's) and puts none in place.
    Returns one line per piece, saying whether it was installed or already in place.
    """
    prefix = Path(prefix or sys.prefix)
    return [
        register_kernel(prefix),
        install_settings(prefix),
        install_server_config(prefix, None if shared else state),
        install_labextension(prefix),
        install_first_layout(prefix) if shared else install_workspace(state / "workspaces"),
    ]


def install_first_layout(prefix: Path) -> str:
    """Enable the server extension that puts the lab's layout in each student's home (first_layout.py), in
    prefix/etc/jupyter/jupyter_server_config.d/, where packages enable theirs."""
    target = prefix / "etc" / "jupyter" / "jupyter_server_config.d" / "spec2code-lab.json"
    ours = {"ServerApp": {"jpserver_extensions": {"lab.jupyter.first_layout": True}}}
    line = merge_json(target, ours, "JupyterLab layout for each student")
    return f"{line.split(' (')[0]}: the lab's, put in a student's home when their server starts ({target})"


def register_kernel(prefix: Path) -> str:
    """Install the `spec2code-lab` kernelspec (this Python) into prefix/share/jupyter/kernels."""
    spec_file = prefix / "share" / "jupyter" / "kernels" / KERNEL_NAME / "kernel.json"
    try:
        current = json.loads(spec_file.read_text(encoding="utf-8"))
        argv, name = current.get("argv", []), current.get("display_name")
        if argv[:1] == [sys.executable] and KERNEL_EXTENSION in argv and name == KERNEL_DISPLAY_NAME:
            return f"kernel {KERNEL_NAME!r} already registered ({spec_file.parent})"
    except (OSError, ValueError):
        pass
    try:
        from ipykernel.kernelspec import install
    except ImportError as exc:
        raise LaunchError(f"ipykernel is not installed in this Python ({exc}). Install the lab with: pip install -e .")
    try:
        where = _staged_apart(lambda: install(kernel_name=KERNEL_NAME, display_name=KERNEL_DISPLAY_NAME,
                                              prefix=str(prefix)))
    except OSError as exc:
        raise LaunchError(
            f"Cannot register the lab's kernel under {prefix}: {exc.strerror or exc}. "
            "Use a virtual environment you own: python -m venv .venv && .venv/bin/pip install -e ."
        )
    spec = json.loads(spec_file.read_text(encoding="utf-8"))
    spec["argv"].append(KERNEL_EXTENSION)
    write_atomically(spec_file, json.dumps(spec, indent=1) + "\n")
    return f"kernel {KERNEL_NAME!r} registered ({where})"


def _staged_apart(call):
    """`call()` with the temporary folder pointed at a folder of its own, removed afterwards: ipykernel stages the
    kernelspec in a new folder there and leaves that folder behind, empty (one more on a lab server at every setup)."""
    with tempfile.TemporaryDirectory(prefix="spec2code-kernelspec-") as folder:
        before, tempfile.tempdir = tempfile.tempdir, folder
        try:
            return call()
        finally:
            tempfile.tempdir = before


def install_settings(prefix: Path) -> str:
    """Merge the lab's overrides.json into prefix/share/jupyter/lab/settings/overrides.json (ours win per key)."""
    target = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    ours = json.loads(OVERRIDES.read_text(encoding="utf-8"))
    return merge_json(target, ours, "JupyterLab settings")


def install_server_config(prefix: Path, state: Path | None = STATE) -> str:
    """Merge the lab's server settings into prefix/etc/jupyter/jupyter_server_config.json (ours win per key).

    Besides SERVER_CONFIG: the layouts live in the lab's own folder `state` (with None, JupyterLab's own folder of
    each user: an earlier setup's is taken out), and a terminal opened in JupyterLab starts as `terminal_command`
    says, with the lab's Python first on PATH.
    """
    install_terminal_rc(prefix)
    target = prefix / "etc" / "jupyter" / "jupyter_server_config.json"
    ours = json.loads(json.dumps(SERVER_CONFIG))
    ours["LabApp"] = {"workspaces_dir": None if state is None else str(state / "workspaces")}
    ours["ServerApp"]["terminado_settings"] = {"shell_command": terminal_command(prefix)}
    return merge_json(target, ours, "JupyterLab server settings")


def terminal_command(prefix: Path) -> list[str]:
    """How a terminal in the lab starts: a login shell, as JupyterLab starts one, then the lab's virtual
    environment activated last, so `spec2code` and `python` are the lab's.

    Activated last, because the login files (/etc/profile sets PATH afresh) and a ~/.bashrc that puts pyenv or
    conda first would otherwise win. With bash: `bash --rcfile RC` reads TERMINAL_RC, which reads ~/.bashrc and
    then activates. Without bash: the bin folder is put first on PATH before the shell starts.
    """
    bin_folder = Path(prefix) / "bin"
    bash = shutil.which("bash")
    if bash:
        rc = Path(prefix) / "etc" / "jupyter" / TERMINAL_RC
        return [bash, "-l", "-c", f'exec {shlex.quote(bash)} --rcfile "$0" -i', str(rc)]
    return ["/bin/sh", "-l", "-c", 'PATH="$0:$PATH"; export PATH; exec /bin/sh -i', str(bin_folder)]


def install_terminal_rc(prefix: Path) -> None:
    """Write TERMINAL_RC: the user's ~/.bashrc, then this environment activated (or its bin first on PATH)."""
    bin_folder = shlex.quote(str(Path(prefix) / "bin"))
    text = (
        "# A terminal in the lab starts here (written by `spec2code lab --setup-only`, see lab/jupyter/install.py):\n"
        "# your own ~/.bashrc, then the lab's Python first on PATH, so `spec2code` and `python` are the lab's.\n"
        '[ -f ~/.bashrc ] && . ~/.bashrc\n'
        f"if [ -f {bin_folder}/activate ]; then . {bin_folder}/activate; else export PATH={bin_folder}:\"$PATH\"; fi\n"
    )
    target = Path(prefix) / "etc" / "jupyter" / TERMINAL_RC
    try:
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            write_atomically(target, text)
    except OSError as exc:
        raise LaunchError(f"Cannot write the lab's terminal set-up to {target}: {exc.strerror or exc}.")


def merge_json(target: Path, ours: dict, what: str) -> str:
    """Merge `ours` into the JSON file `target`, one level deep (ours win per key; other keys are kept; a key of
    ours set to None is taken out)."""
    try:
        merged = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        merged = {}
    before = json.dumps(merged, sort_keys=True)
    for section, values in ours.items():
        merged.setdefault(section, {}).update(values)
        for key in [key for key, value in values.items() if value is None]:
            del merged[section][key]
        if not merged[section]:
            del merged[section]
    if json.dumps(merged, sort_keys=True) == before:
        return f"{what} already in place ({target})"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, json.dumps(merged, indent=2) + "\n")
    except OSError as exc:
        raise LaunchError(f"Cannot write the lab's {what} to {target}: {exc.strerror or exc}.")
    return f"{what} installed ({target})"


def labextension_name() -> str:
    return json.loads((LABEXTENSION_BUILT / "package.json").read_text(encoding="utf-8"))["name"]


def install_labextension(prefix: Path) -> str:
    """Copy the built reload extension into prefix/share/jupyter/labextensions/<name>/, where JupyterLab loads it."""
    target = prefix / "share" / "jupyter" / "labextensions" / labextension_name()
    if target.is_dir() and same_tree(LABEXTENSION_BUILT, target):
        return f"reload extension already installed ({target})"
    try:
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(LABEXTENSION_BUILT, target)
    except OSError as exc:
        raise LaunchError(f"Cannot install the lab's JupyterLab extension in {target}: {exc.strerror or exc}.")
    return f"reload extension installed ({target})"


def same_tree(a: Path, b: Path) -> bool:
    """Whether two folders hold the same files with the same bytes."""
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    if files != sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file()):
        return False
    return all(filecmp.cmp(a / name, b / name, shallow=False) for name in files)


def labextension_source_hash() -> str:
    """The SHA-256 of the extension's sources (LABEXTENSION_SOURCES), file names and bytes, in a fixed order."""
    digest = hashlib.sha256()
    for name in LABEXTENSION_SOURCES:
        path = LABEXTENSION / name
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file():
                digest.update(file.relative_to(LABEXTENSION).as_posix().encode() + b"\0")
                digest.update(file.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return digest.hexdigest()


def workspace_file(workspace_id: str) -> str:
    """The file JupyterLab keeps a layout in, for a plain id such as the lab's "default": jupyterlab_server's
    slugify, written here because importing it loads the whole server into `spec2code lab` (5 s, 48 MiB kept while
    the lab runs). A test holds the two to the same name."""
    if not re.fullmatch(r"[a-z0-9_-]+", workspace_id):
        raise ValueError(f"not a plain workspace id: {workspace_id!r}")
    return f"{workspace_id}-{hashlib.sha256(workspace_id.encode()).hexdigest()[:4]}.jupyterlab-workspace"


def install_workspace(folder: Path, workspace: dict | None = None) -> str:
    """Put the lab's default layout (workspace.json, or `workspace`) in `folder`, unless a layout is there: the
    student's wins."""
    workspace = workspace or json.loads(WORKSPACE.read_text(encoding="utf-8"))
    target = folder / workspace_file(workspace["metadata"]["id"])
    if target.is_file():
        return f"JupyterLab layout already in place ({target})"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(target, json.dumps(workspace, indent=2) + "\n")
    except OSError as exc:
        raise LaunchError(f"Cannot write the lab's JupyterLab layout to {target}: {exc.strerror or exc}.")
    return f"JupyterLab layout installed: the start notebook, lab/agent.py beside it ({target})"


if __name__ == "__main__":  # `make labextension` records the sources its build was made from
    write_atomically(SOURCE_HASH, labextension_source_hash() + "\n")
    print(f"recorded the extension's source hash in {SOURCE_HASH.relative_to(PROJECT_ROOT)}")
