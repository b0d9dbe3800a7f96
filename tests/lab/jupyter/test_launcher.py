"""`spec2code lab`: setup is idempotent, and the real JupyterLab server it starts serves the lab and runs a check."""

import asyncio
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import nbformat
import pytest

from lab.jupyter import launcher as launch
from tests.paths import ROOT
from tests.shipped import stubs_file

START_TIMEOUT = 120  # seconds for the launcher to print its URL on a slow, busy machine
URL = re.compile(r"(http://127\.0\.0\.1:(\d+)/lab/tree/notebooks/00_start\.ipynb\?token=(\w+))")


# --- setup --------------------------------------------------------------------------------------------------------


def test_setup_registers_the_kernel_and_installs_the_settings_once(tmp_path):
    settings = tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}))

    first = launch.setup(prefix=tmp_path)
    assert first[0].startswith("kernel 'spec2code-lab' registered")
    assert first[1].startswith("JupyterLab settings installed")
    second = launch.setup(prefix=tmp_path)
    assert second[0].startswith("kernel 'spec2code-lab' already registered")
    assert second[1].startswith("JupyterLab settings already in place")

    spec = json.loads((tmp_path / "share" / "jupyter" / "kernels" / "spec2code-lab" / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable and spec["display_name"] == launch.KERNEL_DISPLAY_NAME
    assert launch.KERNEL_EXTENSION in spec["argv"]  # the lab's errors read as messages in its notebooks
    merged = json.loads(settings.read_text())
    assert merged["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}  # someone else's: kept
    assert merged["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false", "checkForUpdates": False}


def test_every_overridden_setting_exists_in_jupyterlab():
    """A misspelt plugin or setting name in overrides.json would be ignored silently."""
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"
    for plugin, values in json.loads(launch.OVERRIDES.read_text()).items():
        package, name = plugin.rsplit(":", 1)
        schema = json.loads((schemas / package / f"{name}.json").read_text())
        assert set(values) <= set(schema["properties"]), plugin


@pytest.mark.parametrize(
    "environ, expected",
    [({}, False), ({"DISPLAY": ":0"}, True), ({"WAYLAND_DISPLAY": "wayland-0"}, True)],
)
def test_a_browser_is_opened_only_where_there_is_a_display(monkeypatch, environ, expected):
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert launch.has_display() is expected


def test_the_server_command_opens_the_start_notebook_in_the_project(tmp_path):
    command = launch.server_command(8888, "abc", open_browser=False)
    assert f"--ServerApp.root_dir={ROOT}" in command
    assert "--LabApp.default_url=/lab/tree/notebooks/00_start.ipynb" in command
    assert "--ServerApp.open_browser=False" in command and "--IdentityProvider.token=abc" in command
    assert (ROOT / launch.START_NOTEBOOK).is_file()


def test_a_busy_port_is_a_clear_message(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert launch.main(["--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert f"Port {port} is already in use. Choose another with --port" in err


def test_setup_only_is_what_the_makefile_runs():
    done = subprocess.run([sys.executable, "-m", "lab.commands", "lab", "--setup-only"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Setup done. Start the lab with: spec2code lab" in done.stdout


# --- the real server ----------------------------------------------------------------------------------------------


class Lab:
    """A running `spec2code lab`: its URL, port and token, and a small HTTP client for its REST API."""

    def __init__(self, process, url, port, token, printed):
        self.process, self.url, self.port, self.token, self.printed = process, url, port, token, printed
        self.base = f"http://127.0.0.1:{port}"

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                raw = response.read().decode()
                kind = response.headers.get("Content-Type", "")
                return response.status, (json.loads(raw) if "json" in kind and raw else raw)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()


def start_lab(env_extra=None):
    """Run the real launcher (no display, so no browser) on a free port; return a Lab once it prints its URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(env_extra or {})
    port = launch.free_port(18000 + os.getpid() % 2000)
    process = subprocess.Popen(
        [sys.executable, "-m", "lab.commands", "lab", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    printed, deadline = [], time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            printed.append(lines.get(timeout=1))
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        found = URL.search(printed[-1])
        if found:
            while True:  # the lines after the URL say whether a browser was opened
                try:
                    printed.append(lines.get(timeout=2))
                except queue.Empty:
                    break
            return Lab(process, found.group(1), int(found.group(2)), found.group(3), "".join(printed))
    stop_lab(process)
    pytest.fail("spec2code lab printed no URL:\n" + "".join(printed))


def stop_lab(process):
    """Stop the launcher as a terminal's Ctrl-C or `kill` would; it stops its server."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The lab as `spec2code lab` opens it, on the stubs (a student's own lab/agent.py plays no part)."""
    running = start_lab({"SPEC2CODE_AGENT": str(stubs_file(tmp_path_factory.mktemp("stubs")))})
    yield running
    stop_lab(running.process)


@pytest.mark.slow
def test_the_launcher_prints_the_url_and_opens_no_browser_without_a_display(lab):
    assert lab.url in lab.printed
    assert "No browser was opened" in lab.printed


@pytest.mark.slow
def test_lab_page_loads(lab):
    status, page = lab.request("GET", "/lab")
    assert status == 200 and "JupyterLab" in page


@pytest.mark.slow
def test_the_notebooks_are_listed_through_the_contents_api(lab):
    status, folder = lab.request("GET", "/api/contents/notebooks")
    assert status == 200
    names = sorted(item["name"] for item in folder["content"] if item["type"] == "notebook")
    assert names == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb")) and "00_start.ipynb" in names


@pytest.mark.slow
def test_the_server_knows_the_lab_kernel_and_serves_the_quiet_settings(lab):
    status, specs = lab.request("GET", "/api/kernelspecs")
    assert status == 200
    assert specs["kernelspecs"][launch.KERNEL_NAME]["spec"]["display_name"] == launch.KERNEL_DISPLAY_NAME
    status, notification = lab.request("GET", "/lab/api/settings/@jupyterlab/apputils-extension:notification")
    defaults = {name: prop.get("default") for name, prop in notification["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false" and defaults["checkForUpdates"] is False


@pytest.mark.slow
def test_step_1_check_cell_runs_in_a_kernel_started_by_the_server(lab):
    nb = nbformat.read(ROOT / "notebooks" / "01_extract_code.ipynb", as_version=4)
    [check_cell] = [c.source for c in nb.cells if c.cell_type == "code" and "check_step(1)" in c.source]
    status, kernel = lab.request("POST", "/api/kernels", {"name": nb.metadata.kernelspec.name})
    assert status == 201, kernel
    try:
        replies = asyncio.run(execute_over_websocket(lab, kernel["id"], check_cell))
    finally:
        lab.request("DELETE", f"/api/kernels/{kernel['id']}")
    assert replies["status"] == "ok", replies
    assert re.search(r"^Step 1 · extract_code \(.*\): not started", replies["text/plain"], re.M), replies
    assert 'class="spec2code-check"' in replies["text/html"]


async def execute_over_websocket(lab, kernel_id, code, timeout=120):
    """Send one execute_request on the kernel's channels websocket; collect the result until the kernel is idle."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    url = f"ws://127.0.0.1:{lab.port}/api/kernels/{kernel_id}/channels"
    conn = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {lab.token}"}))
    msg_id = uuid.uuid4().hex
    conn.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "test", "session": uuid.uuid4().hex,
                   "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True},
    }))
    found = {"text/plain": "", "text/html": "", "status": None}
    idle = False
    deadline = time.monotonic() + timeout
    while not (idle and found["status"]):
        raw = await asyncio.wait_for(conn.read_message(), timeout=max(1, deadline - time.monotonic()))
        assert raw is not None, "the kernel websocket closed"
        msg = json.loads(raw)
        if msg.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind in ("execute_result", "display_data"):
            for mime in ("text/plain", "text/html"):
                found[mime] += content["data"].get(mime, "")
        elif kind == "error":
            found["text/plain"] += f"ERROR {content['ename']}: {content['evalue']}"
        elif kind == "execute_reply":
            found["status"] = content["status"]
        elif kind == "status" and content["execution_state"] == "idle":
            idle = True
    conn.close()
    return found


@pytest.mark.slow
def test_stopping_the_launcher_stops_the_server():
    running = start_lab()
    stop_lab(running.process)
    assert running.process.returncode is not None
    deadline = time.monotonic() + 30
    while not launch.port_is_free(running.port) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert launch.port_is_free(running.port), "JupyterLab kept running after its launcher stopped"
