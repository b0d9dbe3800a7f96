"""What test_jupyterhub.py drives: a JupyterHub on 127.0.0.1, Linux users for its students, the repository of
student files an nbgitpuller link pulls, and a browser's requests (login, the link, a kernel's cell, a save)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import sysconfig
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

from tests.harness.sandbox import identities
from tests.harness.sandbox.identities import shared_folder  # noqa: F401 (the test's too)
from tests.paths import ROOT

PROXY_CACHE = Path.home() / ".cache" / "spec2code-tests"  # npm's install of the proxy, kept between runs
PASSWORD = secrets.token_hex(8)
CULLER = secrets.token_hex(16)  # the idle culler's API token: a service with the scopes z2jh's culler has
WAIT = 90.0  # seconds a server may take to start, or to stop, on a busy machine
HOMES = Path("/tmp/spec2code-hub-homes")  # the test students' homes, one fixed place so their users can be kept
UPDATE = "NEWS.md"  # what the instructor adds to the student files while the servers are down
_updated = threading.Lock()


def proxy_command() -> list[str] | None:
    """configurable-http-proxy: on PATH, or installed with npm once into PROXY_CACHE; None without node and npm.
    Version 5 needs node 20 or later; Debian 12's node is 18, which version 4 runs on."""
    found = shutil.which("configurable-http-proxy")
    if found:
        return [found]
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        return None
    major = int(subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip("v\n").split(".")[0])
    package = f"configurable-http-proxy@{5 if major >= 20 else 4}"
    folder = PROXY_CACHE / package
    binary = folder / "node_modules" / ".bin" / "configurable-http-proxy"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.is_file():
            subprocess.run([npm, "install", "--prefix", str(folder), package, "--no-audit", "--no-fund",
                            "--loglevel=error"], check=True, capture_output=True, timeout=300)
    return [str(binary)]


def shared_install() -> Path | None:
    """The lab installed once for every user, as an image or TLJH's shared prefix holds it: an environment of a
    Python every user can run that sees this one's packages and the lab's folder, with the hub's single-user server
    and the lab's JupyterLab pieces set up for students with folders of their own. None if no such Python is here."""
    system = identities.runtime()
    ours = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    if system is None or not all(identities._readable_by_all(p) for p in ours):
        return None
    env = Path(shared_folder("spec2code-hub-env-"))
    subprocess.run([system, "-m", "venv", "--without-pip", str(env)], check=True, capture_output=True)
    site = subprocess.run([f"{env}/bin/python", "-c", "import site; print(site.getsitepackages()[0])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "spec2code-hub.pth").write_text("\n".join([*ours, str(identities.home())]) + "\n")
    script = env / "bin" / "jupyterhub-singleuser"
    script.write_text(f"#!{env}/bin/python\nimport sys\nfrom jupyterhub.singleuser import main\nsys.exit(main())\n")
    script.chmod(0o755)
    here = Path(sys.prefix)  # what pip put in the prefix beside the packages: the server extensions it enables
    # (but jupyter-lsp's, which runs npm at each start to look for language servers: 3 CPU-s of this test) ...
    shutil.copytree(here / "etc" / "jupyter" / "jupyter_server_config.d", env / "etc" / "jupyter" /
                    "jupyter_server_config.d", ignore=shutil.ignore_patterns("jupyter-lsp*"))
    (env / "share" / "jupyter" / "lab").mkdir(parents=True)
    for name in ("static", "schemas", "themes"):  # ... and JupyterLab's own pages
        if (here / "share" / "jupyter" / "lab" / name).is_dir():
            (env / "share" / "jupyter" / "lab" / name).symlink_to(here / "share" / "jupyter" / "lab" / name)
    wrapper = env / "bin" / "as-in-a-pod"  # see Hub.in_a_pod
    identities_py = identities.script("tests/harness/sandbox/identities.py")
    wrapper.write_text(f"#!{env}/bin/python\nimport ctypes, runpy, sys\n"
                       "ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)  # no_new_privs: allowPrivilegeEscalation false\n"
                       f"sys.argv = [{identities_py!r}, '--refuse-namespaces', *sys.argv[1:]]\n"
                       f"runpy.run_path({identities_py!r}, run_name='__main__')\n")
    wrapper.chmod(0o755)
    subprocess.run([f"{env}/bin/python", "-m", "lab.commands", "lab", "--setup-only"], cwd=env, check=True,
                   capture_output=True, env={"PATH": os.environ["PATH"], "HOME": str(env),
                                             "SPEC2CODE_STUDENT_DIR": "~/spec2code-lab"})
    subprocess.run(["chmod", "-R", "a+rX", str(env)], check=True)
    return env


def megabytes(quantity: str) -> float:
    """A Kubernetes memory quantity (512M, 1G, 1Gi) in MB of 2**20 bytes, as the test reports PSS."""
    units = {"K": 1e3, "M": 1e6, "G": 1e9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    number = quantity.rstrip("KMGi")
    return float(number) * units[quantity[len(number):]] / 2**20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def students(names):
    """Linux users for `names` (made once, kept, as the suite's other user is), each with a home of mode 700 (as
    useradd makes it) made afresh under HOMES; one test at a time on the machine uses them."""
    import pwd

    with open("/tmp/spec2code-hub-students.lock", "w") as lock:  # /tmp itself: each worker has a TMPDIR of its own
        fcntl.flock(lock, fcntl.LOCK_EX)
        HOMES.mkdir(mode=0o755, exist_ok=True)
        HOMES.chmod(0o755)
        made = {}
        for name in names:
            home = HOMES / name
            try:
                known = pwd.getpwnam(name).pw_dir
            except KeyError:
                subprocess.run(["useradd", "--home-dir", str(home), "--no-create-home", "--shell", "/bin/bash",
                                "--user-group", name], check=True, capture_output=True)
                known = str(home)
            assert known == str(home), f"user {name} exists with another home, {known}: not one of this test's"
            shutil.rmtree(home, ignore_errors=True)  # a home a run before left
            home.mkdir(mode=0o700)
            shutil.chown(home, name, name)
            made[name] = home
        try:
            yield made
        finally:
            for home in made.values():
                shutil.rmtree(home, ignore_errors=True)


@contextlib.contextmanager
def student_repository(folder: str):
    """The repository an nbgitpuller link pulls: `spec2code lab --student-files` into a new folder, committed, and
    served by git's own daemon on 127.0.0.1 as the instructor's remote. Yields (its folder, its address).

    Served, not read in place: git refuses to read a repository another user owns (safe.directory), as a student
    reading the instructor's folder would be."""
    repo = Path(folder) / "spec2code-student-files"
    subprocess.run([sys.executable, "-m", "lab.commands", "lab", "--student-files", str(repo)], cwd=ROOT,
                   check=True, capture_output=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "The lab's student files")
    port = free_port()
    daemon = subprocess.Popen(["git", "daemon", "--reuseaddr", "--listen=127.0.0.1", f"--port={port}", "--export-all",
                               f"--base-path={folder}", "--informative-errors", folder],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"git://127.0.0.1:{port}/{repo.name}"
        deadline = time.monotonic() + WAIT
        while subprocess.run(["git", "ls-remote", url], capture_output=True).returncode != 0:
            assert daemon.poll() is None and time.monotonic() < deadline, "git daemon did not serve the repository"
            time.sleep(0.1)
        yield repo, url
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)


def update_once(repo: Path) -> None:
    """The instructor's change to the student files, committed once however many students ask."""
    with _updated:
        if not (repo / UPDATE).exists():
            (repo / UPDATE).write_text("# News\n\nStep 6 now draws its chart offline.\n")
            _git(repo, "add", UPDATE)
            _git(repo, "commit", "-qm", "News")
            subprocess.run(["chmod", "-R", "a+rX", str(repo)], check=True)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Instructor", "-c", "user.email=instructor@example.org", *args],
                   cwd=repo, check=True, capture_output=True)


def pss_of_user(name: str) -> int:
    """The PSS of every process of user `name`, in bytes (its server, kernels and sandbox processes)."""
    import psutil

    uid = int(subprocess.run(["id", "-u", name], capture_output=True, text=True, check=True).stdout)
    total = 0
    for process in psutil.process_iter(["uids"]):
        try:
            if process.info["uids"] and process.info["uids"].real == uid:
                total += process.memory_full_info().pss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


class Hub:
    """JupyterHub, as `config` (zero-to-jupyterhub's values) says, with the local process spawner and a password."""

    def __init__(self, folder: Path, config: dict, users, install: Path, in_a_pod=()):
        """`in_a_pod`: the users whose servers run as zero-to-jupyterhub's pods run them, with no privilege
        escalation and no new namespaces (Docker's seccomp profile), so the lab has no user namespaces there."""
        self.folder_of_hub, self.config, self.users, self.install = folder, config, users, install
        self.in_a_pod = sorted(in_a_pod)
        self.port, self.hub_port, self.api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.folder = Path(config["singleuser"]["extraEnv"]["SPEC2CODE_STUDENT_DIR"]).name
        self.process = None

    def __enter__(self) -> "Hub":
        single = self.config["singleuser"]
        scripts = self.install / "bin"  # the image's PATH: the lab's environment first
        environment = {**single["extraEnv"], "PATH": f"{scripts}:/usr/local/bin:/usr/bin:/bin"}
        settings = {
            "JupyterHub.bind_url": f"{self.url}/", "JupyterHub.hub_bind_url": f"http://127.0.0.1:{self.hub_port}",
            "ConfigurableHTTPProxy.command": proxy_command(),
            "ConfigurableHTTPProxy.api_url": f"http://127.0.0.1:{self.api_port}",
            "JupyterHub.db_url": f"sqlite:///{self.folder_of_hub}/hub.sqlite",
            "JupyterHub.cookie_secret_file": f"{self.folder_of_hub}/cookie_secret",
            "JupyterHub.authenticator_class": "dummy", "DummyAuthenticator.password": PASSWORD,
            "Authenticator.allowed_users": sorted(self.users),
            "JupyterHub.spawner_class": "localprocess", "Spawner.cmd": [single["cmd"]],
            "Spawner.default_url": single["defaultUrl"], "Spawner.environment": environment,
            "Spawner.ip": "127.0.0.1", "Spawner.start_timeout": WAIT, "Spawner.http_timeout": WAIT,
            "JupyterHub.services": [{"name": "culler", "api_token": CULLER}],
            "JupyterHub.load_roles": [{"name": "culler", "services": ["culler"], "scopes": [
                "list:users", "read:users:activity", "read:servers", "delete:servers", "admin:users"]}],
        }
        lines = [f"c.{key} = {value!r}" for key, value in settings.items()]
        lines.append("c.Authenticator.allowed_users = set(c.Authenticator.allowed_users)")
        lines.append(f"c.Spawner.pre_spawn_hook = lambda spawner: setattr(spawner, 'cmd', "
                     f"[{str(self.install / 'bin' / 'as-in-a-pod')!r}, *spawner.cmd] "
                     f"if spawner.user.name in {self.in_a_pod!r} else spawner.cmd)")
        (self.folder_of_hub / "jupyterhub_config.py").write_text("\n".join(lines) + "\n")
        self.log = open(self.folder_of_hub / "hub.log", "wb")
        path = f"{sysconfig.get_path('scripts')}:{os.environ.get('PATH', '')}"  # the hub's own environment first
        self.process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", "jupyterhub_config.py"],
                                        cwd=self.folder_of_hub, stdout=self.log, stderr=self.log,
                                        env={**os.environ, "PATH": path})
        self._wait(lambda: self.api("GET", "/hub/api/").status_code == 200, "the hub to answer")
        return self

    def __exit__(self, *_):
        if self.process and self.process.poll() is None:
            self.process.terminate()  # the hub stops the servers it started (cleanup_servers) and its proxy
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()

    def tail(self, lines: int = 30) -> str:
        return "\n".join((self.folder_of_hub / "hub.log").read_text(errors="replace").splitlines()[-lines:])

    def api(self, method: str, path: str, **kwargs):
        import requests

        try:
            return requests.request(method, self.url + path, headers={"Authorization": f"token {CULLER}"},
                                    timeout=30, **kwargs)
        except requests.ConnectionError:
            return requests.Response()  # status_code None: not answering yet

    def _wait(self, ready, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the hub stopped (exit {self.process.returncode}):\n{self.tail()}")
            if ready():
                return
            time.sleep(0.25)
        raise AssertionError(f"waited {WAIT:g} s for {what}:\n{self.tail()}")

    def cull(self, name: str) -> None:
        """Stop the student's server as the idle culler does (DELETE through the hub's API), and wait until it is."""
        answer = self.api("DELETE", f"/hub/api/users/{name}/server")
        assert answer.status_code in (202, 204), (answer.status_code, answer.text)
        self._wait(lambda: not self.api("GET", f"/hub/api/users/{name}").json().get("servers"),
                   f"{name}'s server to stop")

    def ready(self, name: str) -> bool:
        """Whether the student's server is up (asked as the spawn page asks, every half second, not faster)."""
        time.sleep(0.25)
        server = self.api("GET", f"/hub/api/users/{name}").json().get("servers", {}).get("", {})
        return bool(server.get("ready"))

    def browser(self, name: str) -> "Browser":
        return Browser(self, name)


class Browser:
    """One student's browser: a cookie jar, logged in with the password, and the requests JupyterLab sends."""

    def __init__(self, hub: Hub, name: str):
        import requests

        self.hub, self.name, self.session = hub, name, requests.Session()
        self.server = f"{hub.url}/user/{name}"
        self.session.get(f"{hub.url}/hub/login", timeout=30)
        answer = self.session.post(f"{hub.url}/hub/login", timeout=30, data={
            "username": name, "password": PASSWORD, "_xsrf": self.session.cookies.get("_xsrf", path="/hub/")})
        assert answer.ok and "jupyterhub-session-id" in self.session.cookies, (answer.status_code, answer.url)

    def pull(self, link: str, repo: str) -> None:
        """Open the nbgitpuller link (the hub starts the server if it is down) and do the pull its page does."""
        parts = urllib.parse.urlsplit(link)
        query = urllib.parse.parse_qs(parts.query)
        query["repo"] = [repo]
        opened = f"{self.hub.url}{parts.path}?{urllib.parse.urlencode(query, doseq=True)}"
        page = f"{self.server}/git-pull"
        if not self.session.get(opened, timeout=30).url.startswith(page):  # the hub is starting the server
            self.hub._wait(lambda: self.hub.ready(self.name), f"{self.name}'s server to start")
            landed = self.session.get(opened, timeout=30).url
            assert landed.startswith(page), f"the link led to {landed}, not the pull page"
        api = f"{self.server}/git-pull/api?{urllib.parse.urlencode({k: v[0] for k, v in query.items()})}"
        phases = []
        with self.session.get(api, stream=True, timeout=120) as events:
            for line in events.iter_lines(decode_unicode=True):
                if line.startswith("data: "):
                    phases.append(json.loads(line[len("data: "):]))
                    if phases[-1].get("phase") in ("finished", "error"):
                        break
        assert phases and phases[-1]["phase"] == "finished", phases[-3:]

    def _headers(self) -> dict:
        return {"X-XSRFToken": self.session.cookies.get("_xsrf", path=f"/user/{self.name}/") or ""}

    def read(self, path: str) -> str:
        answer = self.session.get(f"{self.server}/api/contents/{path}", timeout=30)
        assert answer.ok, (answer.status_code, answer.text[:300])
        return answer.json()["content"]

    def exists(self, path: str) -> bool:
        return self.session.get(f"{self.server}/api/contents/{path}?content=0", timeout=30).ok

    def save(self, path: str, text: str) -> None:
        """Save a file as JupyterLab's editor saves it (PUT through the contents API)."""
        answer = self.session.put(f"{self.server}/api/contents/{path}", headers=self._headers(), timeout=30,
                                  json={"type": "file", "format": "text", "content": text})
        assert answer.ok, (answer.status_code, answer.text[:300])

    def run_cell(self, code: str) -> str:
        """Run `code` as a cell of the start notebook, in its kernel, over the websocket JupyterLab uses; what the
        cell showed, as text."""
        session = self.session.post(f"{self.server}/api/sessions", headers=self._headers(), timeout=60, json={
            "path": f"{self.hub.folder}/notebooks/00_start.ipynb", "type": "notebook",
            "kernel": {"name": "spec2code-lab"}}).json()
        return asyncio.run(self._execute(session["kernel"]["id"], code))

    async def _execute(self, kernel: str, code: str) -> str:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        cookies = "; ".join(f"{c.name}={c.value}" for c in self.session.cookies)
        url = f"{self.server.replace('http', 'ws', 1)}/api/kernels/{kernel}/channels"
        # as patient as JupyterLab: the server holds the socket until the kernel answers (up to its 60 s
        # kernel_info_timeout), which takes longer than tornado's default 20 s when three kernels start on a busy
        # machine
        socket_ = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookies, **self._headers()},
                                                      connect_timeout=WAIT, request_timeout=WAIT))
        msg_id = uuid.uuid4().hex
        socket_.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name,
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        shown = []
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(socket_.read_message(), WAIT))
            if message.get("parent_header", {}).get("msg_id") != msg_id or message["channel"] != "iopub":
                continue
            content, kind = message["content"], message["msg_type"]
            if kind in ("display_data", "execute_result"):
                shown.append(content["data"].get("text/plain", ""))
            elif kind == "stream":
                shown.append(content["text"])
            elif kind == "error":
                shown.append(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                break
        socket_.close()
        return "\n".join(shown)

    def close(self) -> None:
        self.session.close()
