"""Benchmark: a student's session in memory: the lab's server, its kernels and their sandbox processes, as PSS.

Starts JupyterLab as `spec2code lab` does, opens the notebooks one after another as a student would (a
session and kernel per notebook, every code cell run in order), then sums the proportional set size (PSS, from
/proc/<pid>/smaps_rollup) over the server's process tree, by kind of process. PSS counts a page shared by n
processes as 1/n in each, so the sum is what the session costs the machine (and what a pod's limit sees, near
enough). It also times each check cell, from the request to its result. Linux only.

    .venv/bin/python bench/session_memory.py [--agent PATH] [--pace SECONDS]

Two sessions: all the notebooks run one after another at once, and at a student's pace, where each notebook's
kernel has sat idle longer than the lab's timeout (install.SERVER_CONFIG) by the time the next one runs. The
second uses a timeout of --pace seconds to stand for the lab's ten minutes. Each total counts the `spec2code lab`
process too, which starts the server and waits for it as long as the lab runs: it is measured first, for real
(started, its PSS read once the lab is up, then stopped), as it holds the same whatever the notebooks do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lab.jupyter import launcher as launch  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from process_memory import Peak, pss_kib, report, session_memory  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TARGET_MB = 300  # the most a session at a student's pace should hold (PSS, the launcher counted)
CELL_TIMEOUT = 180  # seconds one cell may take on a slow, busy machine


# --- a student's session, through the server's API ---------------------------------------------------------------


class Session:
    """The server's REST API and kernel websockets, as JupyterLab in a browser uses them."""

    def __init__(self, port: int, token: str):
        self.port, self.token = port, token

    def request(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://{launch.HOST}:{self.port}{path}", data=data, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=60) as response:
            raw = response.read()
            return json.loads(raw) if raw else None

    def open_notebook(self, notebook: Path) -> dict:
        """What opening a notebook tab does: a session for its path, with a kernel started by the server."""
        path = notebook.relative_to(ROOT).as_posix()
        return self.request("POST", "/api/sessions", {
            "path": path, "name": notebook.name, "type": "notebook", "kernel": {"name": launch.KERNEL_NAME},
        })

    async def run_all(self, session: dict, sources: list[str]) -> list[float]:
        """Run the cells in order on the session's kernel, as Run All does; return each cell's seconds."""
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        url = f"ws://{launch.HOST}:{self.port}/api/kernels/{session['kernel']['id']}/channels"
        conn = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {self.token}"}))
        seconds = []
        try:
            for source in sources:
                start = time.perf_counter()
                await execute(conn, source)
                seconds.append(time.perf_counter() - start)
        finally:
            conn.close()
        return seconds


async def execute(conn, code: str) -> None:
    """Send one execute_request; return when its reply has come and the kernel is idle again."""
    msg_id = uuid.uuid4().hex
    conn.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "student",
                   "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True},
    }))
    replied = idle = False
    deadline = time.monotonic() + CELL_TIMEOUT
    while not (replied and idle):
        raw = await asyncio.wait_for(conn.read_message(), timeout=max(1.0, deadline - time.monotonic()))
        if raw is None:
            raise RuntimeError("the kernel's websocket closed while a cell ran")
        msg = json.loads(raw)
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "execute_reply":
            replied = True
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            idle = True


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def start_server(home: Path, agent: Path, extra: list[str]) -> tuple[subprocess.Popen, Session]:
    """JupyterLab as the launcher starts it, with its workspaces and user settings in `home`."""
    launch.setup()
    port, token = launch.free_port(19000 + os.getpid() % 500), secrets.token_hex(16)
    command = launch.server_command(port, open_browser=False) + [
        f"--LabApp.workspaces_dir={home / 'workspaces'}", f"--LabApp.user_settings_dir={home / 'settings'}", *extra,
    ]
    env = dict(launch.server_environment(token), SPEC2CODE_AGENT=str(agent))
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        launch.wait_until_ready(server, port, token)
    except BaseException:  # Ctrl-C or a server that does not answer: leave no server behind
        server.terminate()
        server.wait(timeout=60)
        raise
    return server, Session(port, token)


def student_session(agent: Path, *, idle_between: float = 0.0, extra: list[str] = ()) -> tuple[dict, dict, int]:
    """Open and run the notebooks in order, idle `idle_between` seconds after each but the last; then measure.

    Returns ({kind: (processes, KiB)} at the end, {notebook: seconds its check cell took}, peak KiB on the way).
    """
    check_seconds = {}
    with tempfile.TemporaryDirectory(prefix="spec2code-bench-") as home:
        server, session = start_server(Path(home), agent, list(extra))
        try:
            with Peak(server.pid) as peak:
                for n, notebook in enumerate(NOTEBOOKS):
                    if n and idle_between:
                        time.sleep(idle_between)
                    sources = code_cells(notebook)
                    seconds = asyncio.run(session.run_all(session.open_notebook(notebook), sources))
                    for source, took in zip(sources, seconds):
                        if "check_step(" in source:
                            check_seconds[notebook.stem] = took
            return session_memory(server.pid), check_seconds, peak.kib
        finally:
            server.terminate()
            server.wait(timeout=60)


def launcher_kib() -> int | None:
    """The PSS of `spec2code lab` once the lab it started is up (None if a lab already runs for this folder)."""
    command = [sys.executable, "-m", "lab.jupyter.launcher", "--no-browser", "--port", str(launch.free_port(19600))]
    launcher = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
    try:
        for line in launcher.stdout:
            if "already running" in line:
                return None
            if "The lab is running" in line:
                time.sleep(1)
                return pss_kib(launcher.pid)
        return None
    finally:
        if launcher.poll() is None:
            launcher.terminate()  # it stops its server, as Ctrl-C would
        launcher.wait(timeout=60)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", type=Path, default=ROOT / "solutions" / "agent.py",
                        help="the agent.py the notebooks use (default: the reference, so every cell does its work)")
    parser.add_argument("--pace", type=float, default=8.0,
                        help="seconds that stand for the lab's idle-kernel timeout in the second session (default 8)")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("session_memory reads /proc: Linux only.")
        return 0
    agent = args.agent.resolve()
    culled = launch_settings()["cull_idle_timeout"]
    waiting = launcher_kib()
    if waiting is None:
        print("(spec2code lab not measured: a lab is already running for this folder; stop it for a full count)")
    counted = {"spec2code lab": (1, waiting)} if waiting is not None else {}

    at_once, check_seconds, peak = student_session(agent)
    at_once.update(counted)
    report(f"All {len(NOTEBOOKS)} notebooks run one after another, at once", at_once)
    print(f"  (at most {(peak + (waiting or 0)) / 1000:.0f} MB while the cells ran)")
    interval = max(1, round(args.pace / 4))
    paced, _, peak = student_session(agent, idle_between=args.pace + 2 * interval + 2, extra=[
        f"--MappingKernelManager.cull_idle_timeout={args.pace:g}", f"--MappingKernelManager.cull_interval={interval}",
    ])
    paced.update(counted)
    held = report(f"All {len(NOTEBOOKS)} run at a student's pace (over {culled // 60} minutes on each, so the lab "
                  "has stopped the idle kernels)", paced, TARGET_MB)
    print(f"  (at most {(peak + (waiting or 0)) / 1000:.0f} MB while the cells ran)")
    print("\ncheck cell, from run to result:")
    for name, took in check_seconds.items():
        print(f"  {name:<20}{took:>6.2f} s")
    if held > TARGET_MB:
        print(f"\nOver the target: {held} MB at a student's pace, against at most {TARGET_MB} MB.")
        return 1
    return 0


def launch_settings() -> dict:
    from lab.jupyter.install import SERVER_CONFIG

    return SERVER_CONFIG["MappingKernelManager"]


if __name__ == "__main__":
    sys.exit(main())
