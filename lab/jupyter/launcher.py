"""`spec2code lab`: set the lab up in JupyterLab (install.py), start JupyterLab, and say where it is.

One lab per project folder: a second `spec2code lab` gives the address of the one running. The server's own
messages go to a log file, so the address is the last thing printed; if the server fails, the end of the log is.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

from harness.errors import LaunchError
from harness.settings import STUDENT_ROOT, shown
from lab.commands.parsing import Parser

from .install import KERNEL_DISPLAY_NAME, KERNEL_NAME, STATE, setup  # noqa: F401 (KERNEL_*: the notebooks' tests)

ROOT = STUDENT_ROOT  # JupyterLab's root: the student's folder (the project folder in a clone)
START_NOTEBOOK = "notebooks/00_start.ipynb"  # what a first run opens (through the layout install.py puts in place)
LOG = STATE / "server.log"  # the server's messages, written afresh each start
LOG_TAIL = 25  # lines of the log shown when the server fails
DEFAULT_PORT = 8888  # the first port tried when --port is not given
HOST = "127.0.0.1"  # the server listens on this machine only
READY_TIMEOUT = 90.0  # seconds to wait for JupyterLab to answer before giving up


def has_display() -> bool:
    """Whether a browser could open here: always on macOS and Windows; on Linux only with X11 or Wayland."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def free_port(start: int, tries: int = 20) -> int:
    """The first port from `start` that nothing listens on."""
    for port in range(start, start + tries):
        if port_is_free(port):
            return port
    raise LaunchError(f"Ports {start}-{start + tries - 1} are all in use. Choose another with --port.")


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        if os.name != "nt":  # as the server binds: a port in TIME_WAIT is free, one that someone listens on is not
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


def lab_url(port: int, token: str, path: str | None = None) -> str:
    """The address of the lab: its layout (the start notebook and agent.py on a first run), or one file's."""
    where = f"/lab/tree/{path}" if path else "/lab"
    return f"http://{HOST}:{port}{where}?token={token}"


def running_lab(root: Path = ROOT) -> str | None:
    """The address of a JupyterLab already serving `root` on this machine, from the servers' runtime files (read
    as jupyter_server's list_running_servers reads them, without importing the server into this process)."""
    from jupyter_core.paths import jupyter_runtime_dir

    for file in sorted(Path(jupyter_runtime_dir()).glob("jpserver-*.json")):
        try:
            info = json.loads(file.read_text(encoding="utf-8"))
            if _alive(info["pid"]) and Path(info["root_dir"]).resolve() == Path(root).resolve():
                return f"{info['url'].rstrip('/')}/lab?token={info.get('token', '')}"
        except (KeyError, OSError, TypeError, ValueError, AttributeError):
            continue  # being written, or not a server's file
    return None


def _alive(pid) -> bool:
    try:
        os.kill(int(pid), 0)
    except PermissionError:
        return True  # another user's process
    except (OSError, ValueError, OverflowError):
        return False
    return True


def server_command(port: int, *, open_browser: bool) -> list[str]:
    """The command line that starts JupyterLab for the lab (used by main and by the tests). It holds no token: any
    user of the machine may read a process's command line; the token goes in its environment (server_environment)."""
    command = [
        sys.executable, "-m", "jupyterlab",
        f"--ServerApp.root_dir={ROOT}",
        f"--ServerApp.ip={HOST}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--LabApp.default_url=/lab",
        f"--ServerApp.open_browser={open_browser}",
        "--ServerApp.answer_yes=True",  # Ctrl-C stops the server without a y/n question
        "--LabApp.news_url=None",  # no news feed fetched from the internet
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # e.g. in a container, where everything runs as root
    return command


def server_environment(token: str | None = None) -> dict[str, str]:
    """This environment, with the lab's Python first on PATH, as `source .venv/bin/activate` would make it, and the
    server's token as JUPYTER_TOKEN (which only this user may read, unlike a command line).

    The kernels and terminals JupyterLab starts inherit it, so `!spec2code check` in a notebook finds the lab.
    """
    env = dict(os.environ)
    if token is not None:
        env["JUPYTER_TOKEN"] = token
    scripts = sysconfig.get_path("scripts")
    if env.get("PATH", "").split(os.pathsep)[0] != scripts:
        env["PATH"] = os.pathsep.join(filter(None, [scripts, env.get("PATH")]))
    if sys.prefix != sys.base_prefix:
        env["VIRTUAL_ENV"] = sys.prefix
    return env


def wait_until_ready(server: subprocess.Popen, port: int, token: str, timeout: float = READY_TIMEOUT) -> None:
    """Return once the server answers; raise LaunchError if it exits or does not answer in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise LaunchError(f"JupyterLab stopped (exit code {server.returncode}).")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/status?token={token}", timeout=2):
                return
        except OSError:
            time.sleep(0.25)
    raise LaunchError(f"JupyterLab did not answer on port {port} within {timeout:g} s.")


def log_tail(lines: int = LOG_TAIL) -> str:
    """The last lines of the server's log, indented, for a message."""
    try:
        text = LOG.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(f"  | {line}" for line in text[-lines:])


def parse_args(argv):
    parser = Parser(
        prog="spec2code lab",
        description="Set up the lab in JupyterLab (kernel, settings, extension, layout) and open it: "
        "notebooks/00_start.ipynb with lab/agent.py beside it.",
    )
    parser.add_argument("--port", type=int, help=f"port to listen on (default: the first free one from {DEFAULT_PORT})")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open a browser (the default when there is no display)")
    parser.add_argument("--setup-only", action="store_true", help="set up JupyterLab for the lab, then stop")
    parser.add_argument("--student-files", nargs="?", const=str(STUDENT_ROOT), metavar="FOLDER",
                        help="put a student's own files (lab/agent.py, lab/try_it.py, notebooks/) in FOLDER (default: "
                        "$SPEC2CODE_STUDENT_DIR), keeping every file already there, then stop: for a JupyterHub")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.student_files is not None:
            return put_student_files(Path(args.student_files))
        if importlib.util.find_spec("jupyterlab") is None:  # looked up, not imported: this process stays small
            raise LaunchError("JupyterLab is not installed in this Python. Install the lab with: pip install -e .")
        if not args.setup_only:
            running = running_lab()
            if running:
                print(f"\n  A lab is already running for this folder. Open this address in your browser:\n\n"
                      f"      {running}\n\n  (Stop it with Ctrl-C in the terminal where it was started.)\n")
                return 0
        for line in setup():
            if args.setup_only or "already" not in line:
                print(line)
        if args.setup_only:
            print("Setup done. Start the lab with: spec2code lab")
            return 0
        return serve(args)
    except LaunchError as exc:
        print(f"spec2code lab: {exc}", file=sys.stderr)
        return 1


def put_student_files(folder: Path) -> int:
    """`--student-files`: a student's own files in `folder`, each one already there kept as it is."""
    from . import student_files  # here: the stubs are made from the reference, which `spec2code lab` never needs

    lines = student_files.put(folder)
    print(f"The student's files in {folder.expanduser().resolve()}:")
    for line in lines:
        print(f"  {line}")
    return 0


def serve(args) -> int:
    if args.port is not None and not port_is_free(args.port):
        raise LaunchError(
            f"Port {args.port} is already in use. Choose another with --port, e.g. --port {args.port + 1}."
        )
    port = args.port if args.port is not None else free_port(DEFAULT_PORT)
    open_browser = not args.no_browser and has_display()
    token = secrets.token_hex(24)
    print(f"Starting JupyterLab on port {port} (its messages go to {shown(LOG)}) ...", flush=True)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    with open(LOG, "wb") as log:
        server = subprocess.Popen(server_command(port, open_browser=open_browser), cwd=ROOT,
                                  env=server_environment(token), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())  # stopping the launcher stops the server
    try:
        wait_until_ready(server, port, token)
        note = "" if open_browser else "\n  (No browser was opened: there is no display here, or you passed --no-browser.)"
        print(f"\n  The lab is running. Open this address in your browser:\n\n      {lab_url(port, token)}\n{note}"
              "\n  Press Ctrl-C to stop the lab.\n", flush=True)
        return server.wait()
    except KeyboardInterrupt:  # Ctrl-C reaches the server too; give it time to shut its kernels down
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.terminate()
        return 0
    except LaunchError as exc:
        if server.poll() is None:
            server.terminate()
        raise LaunchError(f"{exc} The end of its log ({shown(LOG)}):\n{log_tail()}") from None


if __name__ == "__main__":
    sys.exit(main())
