"""`spec2code lab`: one lab per folder, the address printed last, and the real JupyterLab it starts serves the lab."""

import asyncio
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import sysconfig
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import nbformat
import pytest

from lab.jupyter import install
from lab.jupyter import launcher as launch
from tests.paths import ROOT
from tests.shipped import stubs_file

START_TIMEOUT = 120  # seconds for the launcher to print its URL on a slow, busy machine
URL = re.compile(r"(http://127\.0\.0\.1:(\d+)/lab\?token=(\w+))")


# --- setup --------------------------------------------------------------------------------------------------------


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


def test_the_server_command_opens_the_labs_layout_in_the_project():
    command = launch.server_command(8888, open_browser=False)
    assert f"--ServerApp.root_dir={ROOT}" in command
    assert "--LabApp.default_url=/lab" in command
    assert "--ServerApp.open_browser=False" in command and not [a for a in command if "token" in a.lower()]
    assert launch.server_environment("abc")["JUPYTER_TOKEN"] == "abc"  # which only this user may read
    assert launch.lab_url(8888, "abc") == "http://127.0.0.1:8888/lab?token=abc"
    assert (ROOT / launch.START_NOTEBOOK).is_file()


def test_the_server_and_all_it_starts_find_the_labs_commands_first(monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = launch.server_environment()
    assert env["PATH"].split(os.pathsep)[0] == sysconfig.get_path("scripts")
    assert (Path(sysconfig.get_path("scripts")) / "spec2code").is_file()
    assert env["PATH"].endswith("/usr/bin:/bin")


def test_a_lab_running_for_this_folder_is_found_and_one_for_another_is_not(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    assert launch.running_lab() is None
    other = {"root_dir": str(tmp_path), "url": "http://127.0.0.1:8890/", "token": "other", "pid": os.getpid()}
    (tmp_path / "jpserver-1.json").write_text(json.dumps(other))
    assert launch.running_lab() is None
    ours = {"root_dir": str(ROOT), "url": "http://127.0.0.1:8891/", "token": "ours", "pid": os.getpid()}
    (tmp_path / "jpserver-2.json").write_text(json.dumps(ours))
    assert launch.running_lab() == "http://127.0.0.1:8891/lab?token=ours"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / "jpserver-2.json").write_text(json.dumps(ours | {"pid": int(gone.stdout)}))
    assert launch.running_lab() is None  # a server that has stopped is no lab


def test_a_server_that_fails_shows_the_end_of_its_log(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setattr(launch, "LOG", tmp_path / "server.log")
    monkeypatch.setattr(launch, "setup", lambda: [])
    failing = [sys.executable, "-c", "import sys; print('the server could not start: boom'); sys.exit(3)"]
    monkeypatch.setattr(launch, "server_command", lambda *args, **kwargs: failing)
    assert launch.main(["--no-browser", "--port", str(launch.free_port(18500))]) == 1
    err = capsys.readouterr().err
    assert "JupyterLab stopped (exit code 3)" in err and "| the server could not start: boom" in err


def test_a_busy_port_is_a_clear_message(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert launch.main(["--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert f"Port {port} is already in use. Choose another with --port" in err


@pytest.mark.slow  # starts the lab's command, JupyterLab's imports included; test_install.py checks setup() itself
def test_setup_only_is_what_the_makefile_runs():
    done = subprocess.run([sys.executable, "-m", "lab.commands", "lab", "--setup-only"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Setup done. Start the lab with: spec2code lab" in done.stdout


# --- the real server ----------------------------------------------------------------------------------------------


class Lab:
    """A running `spec2code lab`: its URL, port and token, and a small HTTP client for its REST API."""

    def __init__(self, process, url, port, token, printed, env):
        self.process, self.url, self.port, self.token, self.printed = process, url, port, token, printed
        self.env = env  # the launcher's environment: a runtime folder of its own, so another lab plays no part
        self.log = launch.LOG.read_text(encoding="utf-8", errors="replace")  # the server's start-up messages
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


def start_lab(runtime, env_extra=None):
    """Run the real launcher (no display, so no browser) on a free port; return a Lab once it prints its URL.

    `runtime` is the folder where Jupyter servers announce themselves: one of the test's own, so a lab the
    developer has open in this folder is not taken for this one (nor this one for it).
    """
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(env_extra or {}, JUPYTER_RUNTIME_DIR=str(runtime))
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
            return Lab(process, found.group(1), int(found.group(2)), found.group(3), "".join(printed), env)
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
    stubs = stubs_file(tmp_path_factory.mktemp("stubs"))
    running = start_lab(tmp_path_factory.mktemp("runtime"), {"SPEC2CODE_AGENT": str(stubs)})
    yield running
    stop_lab(running.process)


@pytest.mark.slow
def test_the_launcher_prints_the_url_and_opens_no_browser_without_a_display(lab):
    assert lab.url in lab.printed
    assert "No browser was opened" in lab.printed


@pytest.mark.slow
def test_the_address_is_printed_last_and_the_servers_messages_go_to_its_log(lab):
    time.sleep(2)  # anything the server printed after it answered would have come by now
    assert lab.printed.rstrip().endswith("Press Ctrl-C to stop the lab."), lab.printed
    assert "[I " not in lab.printed and "ServerApp" not in lab.printed, lab.printed
    assert f"its messages go to {launch.LOG.relative_to(ROOT).as_posix()}" in lab.printed
    assert "ServerApp" in lab.log


@pytest.mark.slow
def test_a_second_lab_for_the_same_folder_gives_the_address_of_the_first(lab):
    second = subprocess.run([sys.executable, "-m", "lab.commands", "lab"], cwd=ROOT, env=lab.env,
                            capture_output=True, text=True, timeout=300)  # a loaded machine: it once took over 60 s
    assert second.returncode == 0, second.stderr
    assert "A lab is already running for this folder" in second.stdout
    assert f"http://127.0.0.1:{lab.port}/lab?token={lab.token}" in second.stdout
    assert "Starting JupyterLab" not in second.stdout


@pytest.mark.slow
def test_the_server_stops_idle_kernels_even_with_their_notebook_open(lab):
    status, kernel = lab.request("POST", "/api/kernels", {"name": install.KERNEL_NAME})  # the culler starts with it
    assert status == 201, kernel
    lab.request("DELETE", f"/api/kernels/{kernel['id']}")
    log = launch.LOG.read_text(encoding="utf-8", errors="replace")
    timeout = install.SERVER_CONFIG["MappingKernelManager"]["cull_idle_timeout"]
    assert f"Culling kernels with idle durations > {timeout} seconds" in log
    assert "Culling kernels even with connected clients" in log


def command_line(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:  # it ended meanwhile
        return b""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="no /proc to read command lines from")
def test_the_token_is_in_no_command_line_another_user_may_read_and_the_lab_answers_with_it(lab):
    flag = f"--ServerApp.port={lab.port}".encode()
    servers = [p for p in Path("/proc").iterdir() if p.name.isdigit() and flag in command_line(p)]
    assert servers, "no JupyterLab process serves this lab"
    assert [p.name for p in servers if lab.token.encode() in command_line(p)] == []
    assert lab.request("GET", "/api/contents")[0] == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{lab.base}/api/contents?token=not-{lab.token}", timeout=30)
    assert refused.value.code == 403


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
    assert specs["kernelspecs"][install.KERNEL_NAME]["spec"]["display_name"] == install.KERNEL_DISPLAY_NAME
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
def test_stopping_the_launcher_stops_the_server(tmp_path):
    running = start_lab(tmp_path)
    stop_lab(running.process)
    assert running.process.returncode is not None
    deadline = time.monotonic() + 30
    while not launch.port_is_free(running.port) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert launch.port_is_free(running.port), "JupyterLab kept running after its launcher stopped"
