"""`spec2code lab`: register the lab's kernel, install its JupyterLab settings, and open the start notebook."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from harness.errors import LaunchError
from harness.files import write_atomically
from harness.settings import PROJECT_ROOT

ROOT = PROJECT_ROOT  # JupyterLab's root
KERNEL_NAME = "spec2code-lab"  # every notebook names this kernel
KERNEL_DISPLAY_NAME = "Spec to Code lab (Python 3)"
KERNEL_EXTENSION = "--IPKernelApp.extensions=lab.jupyter.kernel_extension"  # the lab's errors read as messages in a notebook
START_NOTEBOOK = "notebooks/00_start.ipynb"  # what JupyterLab opens first
OVERRIDES = Path(__file__).resolve().parent / "overrides.json"  # settings for a quiet first run
DEFAULT_PORT = 8888  # the first port tried when --port is not given
HOST = "127.0.0.1"  # the server listens on this machine only
READY_TIMEOUT = 90.0  # seconds to wait for JupyterLab to answer before giving up


def setup(prefix: str | os.PathLike | None = None) -> list[str]:
    """Register the lab's kernel and install its JupyterLab settings under `prefix` (default: sys.prefix).

    Safe to run again: what is already in place is left alone. Returns one line per thing done or found.
    """
    prefix = Path(prefix or sys.prefix)
    return [register_kernel(prefix), install_settings(prefix)]


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
        where = install(kernel_name=KERNEL_NAME, display_name=KERNEL_DISPLAY_NAME, prefix=str(prefix))
    except OSError as exc:
        raise LaunchError(
            f"Cannot register the lab's kernel under {prefix}: {exc.strerror or exc}. "
            "Use a virtual environment you own: python -m venv .venv && .venv/bin/pip install -e ."
        )
    spec = json.loads(spec_file.read_text(encoding="utf-8"))
    spec["argv"].append(KERNEL_EXTENSION)
    write_atomically(spec_file, json.dumps(spec, indent=1) + "\n")
    return f"kernel {KERNEL_NAME!r} registered ({where})"


def install_settings(prefix: Path) -> str:
    """Merge the lab's overrides.json into prefix/share/jupyter/lab/settings/overrides.json (ours win per key)."""
    target = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    ours = json.loads(OVERRIDES.read_text(encoding="utf-8"))
    try:
        merged = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        merged = {}
    before = json.dumps(merged, sort_keys=True)
    for plugin, values in ours.items():
        merged.setdefault(plugin, {}).update(values)
    if json.dumps(merged, sort_keys=True) == before:
        return f"JupyterLab settings already in place ({target})"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, json.dumps(merged, indent=2) + "\n")
    except OSError as exc:
        raise LaunchError(f"Cannot write the lab's JupyterLab settings to {target}: {exc.strerror or exc}.")
    return f"JupyterLab settings installed ({target})"


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


def lab_url(port: int, token: str, path: str = START_NOTEBOOK) -> str:
    return f"http://{HOST}:{port}/lab/tree/{path}?token={token}"


def server_command(port: int, token: str, *, open_browser: bool) -> list[str]:
    """The command line that starts JupyterLab for the lab (used by main and by the tests)."""
    command = [
        sys.executable, "-m", "jupyterlab",
        f"--ServerApp.root_dir={ROOT}",
        f"--ServerApp.ip={HOST}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--LabApp.default_url=/lab/tree/{START_NOTEBOOK}",
        f"--ServerApp.open_browser={open_browser}",
        "--ServerApp.answer_yes=True",  # Ctrl-C stops the server without a y/n question
        "--LabApp.news_url=None",  # no news feed fetched from the internet
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # e.g. in a container, where everything runs as root
    return command


def wait_until_ready(server: subprocess.Popen, port: int, token: str, timeout: float = READY_TIMEOUT) -> None:
    """Return once the server answers; raise LaunchError if it exits or does not answer in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise LaunchError(f"JupyterLab stopped (exit code {server.returncode}); its messages are above.")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/status?token={token}", timeout=2):
                return
        except OSError:
            time.sleep(0.25)
    raise LaunchError(f"JupyterLab did not answer on port {port} within {timeout:g} s; its messages are above.")


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="spec2code lab",
        description="Set up the lab (kernel and JupyterLab settings) and open notebooks/00_start.ipynb in JupyterLab.",
    )
    parser.add_argument("--port", type=int, help=f"port to listen on (default: the first free one from {DEFAULT_PORT})")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open a browser (the default when there is no display)")
    parser.add_argument("--setup-only", action="store_true", help="register the kernel and settings, then stop")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        for line in setup():
            print(line)
        if args.setup_only:
            print("Setup done. Start the lab with: spec2code lab")
            return 0
        return serve(args)
    except LaunchError as exc:
        print(f"spec2code lab: {exc}", file=sys.stderr)
        return 1


def serve(args) -> int:
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        raise LaunchError("JupyterLab is not installed in this Python. Install the lab with: pip install -e .")
    if args.port is not None and not port_is_free(args.port):
        raise LaunchError(
            f"Port {args.port} is already in use. Choose another with --port, e.g. --port {args.port + 1}."
        )
    port = args.port if args.port is not None else free_port(DEFAULT_PORT)
    open_browser = not args.no_browser and has_display()
    token = secrets.token_hex(24)
    print(f"Starting JupyterLab on port {port} ...", flush=True)
    server = subprocess.Popen(server_command(port, token, open_browser=open_browser), cwd=ROOT)
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())  # stopping the launcher stops the server
    try:
        wait_until_ready(server, port, token)
        url = lab_url(port, token)
        print(f"\n  The lab is running. Open this address in your browser:\n\n      {url}\n", flush=True)
        if not open_browser:
            print("  (No browser was opened: there is no display here, or you passed --no-browser.)", flush=True)
        print("  Press Ctrl-C to stop the lab.\n", flush=True)
        return server.wait()
    except KeyboardInterrupt:  # Ctrl-C reaches the server too; give it time to shut its kernels down
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.terminate()
        return 0
    except LaunchError:
        if server.poll() is None:
            server.terminate()
        raise


if __name__ == "__main__":
    sys.exit(main())
