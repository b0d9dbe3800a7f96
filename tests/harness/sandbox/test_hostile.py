"""The hostile-solution corpus against `harness.run`: no attack goes green, harms the machine, or leaves anything.

Each program in `tests/hostile/` (see its README) is run against the held-out tests and a small visible test file.
The whole corpus runs once per isolation level, in a module fixture (in parallel where the attacks do not need to be
watched alone), and each case's test then asserts on what was recorded; an attack that needs a wall the level
cannot put up is skipped with that level's own sentence. A report per level is written to `test-artifacts/`
(or HOSTILE_REPORTS). The levels run here are HOSTILE_LEVELS (default: auto and process); test_levels.py runs this
file again as a normal user and as root with Docker's default walls.
"""

from __future__ import annotations

import ast
import hashlib
import json
import multiprocessing
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import harness
from tests.paths import HOSTILE
from tests.paths import ROOT as REPO
REPORT_DIR = Path(os.environ.get("HOSTILE_REPORTS") or REPO / "test-artifacts")
LEVELS = [level for level in os.environ.get("HOSTILE_LEVELS", "auto,process").split(",") if level]
TIMEOUT = 2.0  # seconds given to a run of the corpus
ENDLESS_TIMEOUT = 1.0  # ... and to a run of a case that never ends by itself (see `endless` in the README)
MARGIN = 2.0  # run must return within its timeout + MARGIN
WARMUP_TIMEOUT = 20.0  # the first run may start the sandbox's server
MAX_RESULT = 64 * 1024  # characters of json.dumps(result)
# Worker processes for the cases that need no watching alone. Much of their time is the timeout waited out, so more
# workers than cores pay: on 2 cores 6 ran the batch in 22 s where 3 took 36 (and 8, 20), with a 3 s timeout.
WORKERS = 6
KINDS = ("syntax error", "import error", "test error", "timeout", "memory", "crash", "no tests")
CUT_NOTE = re.compile(r"cut|truncat|omitted|elided|\[\.\.\.\]|\u2026", re.I)
NOBODY = 65534
RUN_UIDS = range(1_900_000_000, 1_900_002_000)  # the sandbox's per-run users (harness/sandbox/slots.py)
DEFAULTS = {
    "category": None,
    "rigs_process": False,
    "visible_green": None,
    "error": None,
    "needs": [],
    "serial": False,
    "flood": False,
    "endless": False,
}
WALLS = {"read_files", "write_files", "shared_folders", "signals", "network", "processes", "environments",
         "own_limits"}
# names an attack may create outside its folder (besides anything with "hostile" in it)
ARTIFACTS = {"conftest.py", "sitecustomize.py", "usercustomize.py", "pytest.py", "_pytest", "scratch.json"}
ARTIFACT_PREFIXES = ("hostile_marker_", "hostile_daemon_", "hostile_plugin", "hostile_jail", "hostile_hm",
                     "hostile_fill_", "hostile_mq_")
SECRET = "sk-test-secret-" + uuid.uuid4().hex
SECRET_VARS = {"OPENAI_API_KEY": SECRET, "HOSTILE_TEST_SECRET": "hostile-secret-" + uuid.uuid4().hex}

pytestmark = [
    pytest.mark.slow,  # the whole corpus: about a minute
    pytest.mark.machine,  # judges what it finds in the machine's /tmp and among its processes
]

# The secrets go into the environment at import, so that a sandbox server started later in this session has them.
# OPENAI_API_KEY only if unset, and it is removed again when this module is done (see `corpus`).
_ADDED_VARS = [k for k in SECRET_VARS if k not in os.environ]
for _k in _ADDED_VARS:
    os.environ[_k] = SECRET_VARS[_k]


# --- the corpus -----------------------------------------------------------------------------------------------


# A program is sent as one source, but may share code on disk: a line `from _helper import ...`, where
# `tests/hostile/_helper.py` exists, is replaced by that file's text after its docstring (see the README).
# Other such lines (`from _thread import ...`) are left alone.
SHARED_LINE = re.compile(r"^from (_\w+) import [\w, ]+\n", re.M)


def shared_text(line: re.Match) -> str:
    """The text that stands in for one `from _helper import ...` line: the helper's, or the line itself."""
    path = HOSTILE / f"{line.group(1)}.py"
    if not path.is_file():
        return line.group(0)
    text, name = path.read_text(), path.name
    first = ast.parse(text).body[0]
    assert isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant), f"{name}: no docstring"
    body = "".join(text.splitlines(keepends=True)[first.end_lineno:]).lstrip("\n")
    assert not SHARED_LINE.search(body), f"{name}: a shared helper cannot use another"
    return body


# Each test process tags its attacks' processes with tags of its own: the same case run by a second suite on the
# machine at the same moment left its processes to be found by this one's scan ("still alive when run returned").
SESSION = os.urandom(8).hex()


def load_case(path: Path) -> dict:
    """Read a program's EXPECT header without running it, and inline the shared helpers it uses."""
    text = SHARED_LINE.sub(shared_text, path.read_text())
    expect = None
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["EXPECT"]:
            expect = ast.literal_eval(node.value)
    assert isinstance(expect, dict), f"{path.name}: no literal EXPECT dict"
    unknown = set(expect) - set(DEFAULTS)
    assert not unknown, f"{path.name}: unknown EXPECT keys {unknown}"
    case = {**DEFAULTS, **expect, "name": path.stem, "text": text}
    case["kind"] = "control" if path.stem.startswith("control_") else "attack"
    # A case that never ends by itself runs into the limit whatever its length, spinning a core meanwhile, and
    # whichever tests it runs against: one short run shows what it does.
    case["timeout"] = ENDLESS_TIMEOUT if case["endless"] else TIMEOUT
    case["suites"] = ["holdout"] if case["endless"] else list(SUITES)
    case["tag"] = "hm" + hashlib.sha1(f"{SESSION}:{path.stem}".encode()).hexdigest()[:8]
    return case


VISIBLE_TESTS = (HOSTILE / "_visible_tests.py").read_text()
SUITES = {"holdout": harness.HOLDOUT_TESTS, "visible": VISIBLE_TESTS}
CASES = {p.stem: load_case(p) for p in sorted(HOSTILE.glob("*.py")) if not p.name.startswith("_")}


def names_of_tests(src: str) -> list[str]:
    return [n.name for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]


def is_green(result: dict) -> bool:
    return result.get("error") is None and result.get("failed") == [] and (result.get("passed") or 0) > 0


def source_for(case: dict, ctx: dict) -> str:
    ctx = {**ctx, "tag": case["tag"]}
    text = case["text"]
    assert "\nCTX = {}" in text, f"{case['name']}: no `CTX = {{}}` line"
    return text.replace("\nCTX = {}", f"\nCTX = {ctx!r}", 1)


# --- watching the machine -------------------------------------------------------------------------------------


def ancestors(pid: int) -> list[int]:
    chain = []
    while pid > 1:
        chain.append(pid)
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return chain


def processes() -> dict[int, dict]:
    """Every live (non-zombie) process: uid, state, comm, cmdline."""
    out = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            status = Path(entry.path, "status").read_text()
            cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        state = fields.get("State", "").strip()[:1]
        if state == "Z":
            continue
        out[int(entry.name)] = {
            "uid": int(fields.get("Uid", "-1").split()[0]),
            "state": state,
            "comm": fields.get("Name", "").strip(),
            "cmdline": cmdline[:300],
        }
    return out


def tagged(tag: str) -> dict[int, dict]:
    me = os.getpid()
    return {pid: p for pid, p in processes().items() if pid != me and (tag in p["comm"] or tag in p["cmdline"])}


def nested_namespace_descendants() -> dict[int, str]:
    """Our descendants that live in a nested PID namespace without being its init, nor the keeper that waits for the
    init of a deeper one (the sandbox's own processes): processes a solution or its tests started."""
    parents = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(entry.path, "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    def nspid(pid):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return {}, []
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return fields, fields.get("NSpid", "").split()

    out, stack = {}, list(children.get(os.getpid(), []))
    while stack:
        pid = stack.pop()
        stack += children.get(pid, [])
        fields, ids = nspid(pid)
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        keeper = any(nspid(c)[1][-1:] == ["1"] and len(nspid(c)[1]) > len(ids) for c in children.get(pid, []))
        if fields.get("State", "").strip()[:1] != "Z" and len(ids) >= 2 and ids[-1] != "1" and not keeper:
            out[pid] = f"{fields.get('Name', '').strip()} {cmdline[:150]}"
    return out


def watched_roots() -> list[tuple[Path, int]]:
    """(folder, depth) pairs snapshotted before and after runs: the project, the runtime, home, the folders anyone
    may write (/tmp, /dev/shm, /run/lock), /."""
    import site
    import sys
    import sysconfig

    roots = [(REPO, 99), (Path.home(), 2), (Path("/tmp"), 1), (Path("/dev/shm"), 1), (Path("/run/lock"), 1),
             (Path("/"), 1)]
    for p in {*sys.path, *site.getsitepackages(), sysconfig.get_paths()["stdlib"], os.path.dirname(sys.executable)}:
        if p and os.path.isdir(p):
            roots.append((Path(p), 1))
    return roots


SKIP_DIRS = {".venv", "objects", "node_modules", "__pycache__", "proc", "sys", "dev", "run"}


def snapshot() -> dict[str, tuple]:
    snap = {}
    for root, depth in watched_roots():
        stack = [(str(root), 0)]
        while stack:
            folder, level = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for e in entries:
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                is_dir = e.is_dir(follow_symlinks=False)
                snap[e.path] = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_uid, is_dir)
                if is_dir and level + 1 < depth and e.name not in SKIP_DIRS:
                    stack.append((e.path, level + 1))
    return snap


def fs_diff(before: dict, after: dict) -> list[tuple[str, str, int]]:
    """(change, path, uid) for every file created, changed or deleted (folders only when created or deleted)."""
    out = []
    for path in after.keys() - before.keys():
        out.append(("created", path, after[path][3]))
    for path in before.keys() - after.keys():
        out.append(("deleted", path, before[path][3]))
    for path in before.keys() & after.keys():
        if before[path] != after[path] and not after[path][4]:
            out.append(("changed", path, after[path][3]))
    return sorted(out, key=lambda c: c[1])


# The folders other runs of the lab on this machine make and remove in the shared folders while the corpus runs (a
# grader's child's, handed to a user of the sandbox's range; a sandbox server's), and what is in them: never a
# solution's doing. (Another suite on the machine grades beside this one: seen from a HOME of /tmp, two levels deep,
# its children's copies were once taken for an attack's files, and removed while in use.) A solution that made one of
# these names would have it removed with its user's files when its run ends. The grading attacks
# (tests/agents/attacking/daemon.py, fills_the_disk.py) write "spec2code-attack-" files there as a user of the same
# range when another suite grades them beside this one at the user level, and the slots' own tests (test_slots*.py)
# write "spec2code-test-" files there as such a user: no case of this corpus uses those names.
LAB_FOLDERS = ("spec2code-agent-", "spec2code-sandbox-", "spec2code-attack-", "spec2code-test-")
SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")


def in_a_lab_folder(path: str) -> bool:
    """Whether a path is one of LAB_FOLDERS in a shared folder, or inside one."""
    shared = next((f for f in SHARED_FOLDERS if path.startswith(f + os.sep)), None)
    return shared is not None and path[len(shared) + 1:].startswith(LAB_FOLDERS)


def attributable(change: tuple[str, str, int], canaries: list[str]) -> bool:
    """True if a change must come from a solution: a canary, a file named like an attack's, or owned by nobody."""
    kind, path, uid = change
    name = os.path.basename(path)
    if in_a_lab_folder(path):
        return False
    return (
        path in canaries
        or name.startswith(ARTIFACT_PREFIXES)
        or (kind == "created" and (name in ARTIFACTS or name.endswith(".pth") or re.fullmatch(r"log-\d+\.txt", name)))
        or (kind != "deleted" and (uid == NOBODY or uid in RUN_UIDS))
    )


def sweep() -> list[str]:
    """Attack artifacts anywhere a few levels under /, and in the watched roots."""
    found = []

    def look(folder: str, depth: int) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for e in entries:
            name = e.name
            if name.startswith(ARTIFACT_PREFIXES):
                found.append(e.path)
            elif name in ARTIFACTS and e.is_file(follow_symlinks=False):
                try:
                    head = open(e.path, errors="replace").read(200)
                except OSError:
                    head = ""
                if head.startswith("# hostile"):
                    found.append(e.path)
            if depth > 1 and e.is_dir(follow_symlinks=False) and name not in SKIP_DIRS and name != ".git":
                look(e.path, depth - 1)

    look("/", 4)
    for root, depth in watched_roots():
        look(str(root), min(depth, 6))
    return sorted(set(p for p in found if not p.startswith(str(HOSTILE))))


def remove(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


class Listener:
    """TCP and UDP listeners on loopback (IPv4 and, where possible, IPv6) that record whatever reaches them."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.socks = []
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind(("127.0.0.1", 0))
        tcp.listen(16)
        self.port = tcp.getsockname()[1]
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("127.0.0.1", 0))
        self.udp_port = udp.getsockname()[1]
        self.socks += [tcp, udp]
        for kind, port in ((socket.SOCK_STREAM, self.port), (socket.SOCK_DGRAM, self.udp_port)):
            try:
                s = socket.socket(socket.AF_INET6, kind)
                s.bind(("::1", port))
                if kind == socket.SOCK_STREAM:
                    s.listen(16)
                self.socks.append(s)
            except OSError:
                pass
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            ready, _, _ = select.select(self.socks, [], [], 0.1)
            for s in ready:
                try:
                    if s.type == socket.SOCK_STREAM:
                        conn, addr = s.accept()
                        conn.settimeout(0.5)
                        try:
                            data = conn.recv(64)
                        except OSError:
                            data = b""
                        conn.close()
                    else:
                        data, addr = s.recvfrom(64)
                    self.events.append({"at": time.time(), "type": s.type.name, "from": str(addr), "data": data})
                except OSError:
                    pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        for s in self.socks:
            s.close()


# --- running ----------------------------------------------------------------------------------------------------


def call_with_deadline(fn, deadline: float):
    """Run fn in a daemon thread; give up waiting after `deadline` seconds (a run that never returns is a finding)."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - a raising run is a finding, not a crash of the test
            box["exc"] = f"{type(exc).__name__}: {exc}"[:500]

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(deadline)
    if t.is_alive():
        box["exc"] = f"run did not return within {deadline:.0f} s"
    return box.get("value"), box.get("exc")


def run_once(case: dict, suite: str, ctx: dict) -> dict:
    """One run of one case against one suite, with what was left running right after it returned."""
    src, timeout = source_for(case, ctx), case["timeout"]
    start = time.monotonic()
    result, exc = call_with_deadline(lambda: harness.run(src, SUITES[suite], timeout=timeout), timeout + 30)
    elapsed = time.monotonic() - start
    left = tagged(case["tag"])
    lingering = {}
    if left:  # give the sandbox a second to finish killing, and record what outlives that
        time.sleep(1.0)
        lingering = tagged(case["tag"])
    return {
        "result": result,
        "exc": exc,
        "elapsed": round(elapsed, 3),
        "alive_at_return": sorted(left),
        "alive_after_1s": {pid: p["cmdline"] or p["comm"] for pid, p in lingering.items()},
    }


def too_slow(case: dict, run: dict) -> bool:
    """Whether a run returned later than its case's timeout allows (a busy machine, or a run that hung)."""
    return run["elapsed"] > case["timeout"] + MARGIN


def _run_job(job: tuple) -> dict:
    name, suite, ctx = job
    return run_once(CASES[name], suite, ctx)


def skip_reason(case: dict, isolation: str, lacks: dict) -> str | None:
    """Why a case cannot be run at this level: the level's own sentence about a wall the attack needs."""
    for wall in case["needs"]:
        if wall in lacks:
            return f"{isolation} level: {lacks[wall]}"
    return None


class AbstractListener:
    """An abstract UNIX socket on this machine's network namespace that records whoever connects."""

    def __init__(self) -> None:
        self.name = "hostile-listener-" + uuid.uuid4().hex[:12]
        self.events: list[dict] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind("\0" + self.name)
        self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            conn.settimeout(0.5)
            try:
                data = conn.recv(64)
            except OSError:
                data = b""
            conn.close()
            self.events.append({"at": time.time(), "type": "abstract unix", "from": "", "data": data})

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        self.sock.close()


@pytest.fixture(scope="module", params=LEVELS)
def corpus(request):
    """Run the whole corpus once per level; yield {"cases": {name: record}, ...}; clean up whatever was left."""
    saved = os.environ.get("SPEC2CODE_ISOLATION")
    os.environ["SPEC2CODE_ISOLATION"] = request.param
    try:
        yield from _corpus()
    finally:
        if saved is None:
            os.environ.pop("SPEC2CODE_ISOLATION", None)
        else:
            os.environ["SPEC2CODE_ISOLATION"] = saved


def _corpus():
    home, tmp = Path.home(), Path("/tmp")
    token = uuid.uuid4().hex[:8]
    canaries = [str(REPO / f".hostile_canary_{token}"), str(home / f".hostile_canary_{token}"),
                str(tmp / f"hostile_canary_{token}")]
    for c in list(canaries):
        try:
            Path(c).write_text("canary: must survive the corpus\n")
        except PermissionError:  # a normal user (see test_levels.py) cannot write in the project folder
            canaries.remove(c)
    canary_state = {c: (Path(c).read_text(), os.stat(c).st_mtime_ns) for c in canaries}
    listener, abstract = Listener(), AbstractListener()
    # Another process of the caller's that holds the secrets from its start (as a Jupyter server holds an API key),
    # so that reading other processes' environments has something to find at every level.
    decoy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"], env={**os.environ, **SECRET_VARS},
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ctx = {"repo": str(REPO), "home": str(home), "tmp": str(tmp), "canaries": canaries,
           "port": listener.port, "udp_port": listener.udp_port, "abstract": abstract.name,
           "protect": ancestors(os.getpid())}
    report: dict = {"cases": {}, "started": time.time()}
    try:
        warm, exc = call_with_deadline(
            lambda: harness.run(CASES["control_reference"]["text"], harness.HOLDOUT_TESTS, timeout=WARMUP_TIMEOUT),
            WARMUP_TIMEOUT + 30,
        )
        if exc and "NotImplementedError" in exc:
            pytest.skip(f"harness.run is not available yet ({exc})")
        assert exc is None and isinstance(warm, dict), f"the warm-up run failed: {exc or warm!r}"
        isolation = str(warm.get("isolation"))
        report["isolation"] = isolation
        report["summary"] = harness.sandbox.isolation_summary()
        report["label"] = isolation + ("-userns" if report["summary"].startswith("namespaces through") else "")
        report["warmup"] = warm
        before_all = snapshot()

        lacks = harness.sandbox.isolation_lacks()
        plan = {name: skip_reason(case, isolation, lacks) for name, case in CASES.items()}
        for name, reason in plan.items():
            report["cases"][name] = {"skipped": reason, "runs": {}, "batch": {}, "fs": [], "net": [], "notes": []}
        runnable = [n for n, r in plan.items() if r is None]
        controls = [n for n in runnable if CASES[n]["kind"] == "control"]
        parallel = [n for n in runnable if CASES[n]["kind"] == "attack" and not CASES[n]["serial"]]
        serial = [n for n in runnable if CASES[n]["kind"] == "attack" and CASES[n]["serial"]]

        t0 = time.monotonic()
        for name in controls:  # alone, so that no attack competes with them for the CPU
            for suite in CASES[name]["suites"]:
                report["cases"][name]["runs"][suite] = run_once(CASES[name], suite, ctx)
        report["controls_s"] = round(time.monotonic() - t0, 1)

        t0 = time.monotonic()
        # Worker processes, not threads: each has its own warm sandbox server (harness.run is not promised to be
        # thread-safe), and a worker stuck on a run does not hold up the others' servers.
        jobs = [(n, s, ctx) for n in parallel for s in CASES[n]["suites"]]
        with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("fork")) as pool:
            for (name, suite, _), run in zip(jobs, pool.map(_run_job, jobs)):
                report["cases"][name]["runs"][suite] = run
        # A shared, busy machine can slow a run past its deadline. A run that was slow in the batch is run again
        # alone, and judged on that; the batch figure stays in the report. (Verdicts are never retried.)
        for name in parallel:
            for suite, run in list(report["cases"][name]["runs"].items()):
                if too_slow(CASES[name], run) or (run["exc"] or "").startswith("run did not return"):
                    report["cases"][name]["runs"][suite] = run_once(CASES[name], suite, ctx)
                    report["cases"][name]["batch"][suite] = run
                    report["cases"][name]["load"] = os.getloadavg()
        report["parallel_s"] = round(time.monotonic() - t0, 1)
        report["decoy_alive"] = decoy.poll() is None  # read_other_environments, in that batch, had its target
        time.sleep(1.0)
        report["ns_leftovers"] = nested_namespace_descendants()

        t0 = time.monotonic()
        for name in serial:
            record = report["cases"][name]
            before, events_before = snapshot(), len(listener.events)
            for suite in CASES[name]["suites"]:
                record["runs"][suite] = run_once(CASES[name], suite, ctx)
            after = snapshot()
            record["fs"] = [c for c in fs_diff(before, after) if attributable(c, canaries)]
            record["noise"] = [c for c in fs_diff(before, after) if not attributable(c, canaries)][:20]
            for _, path, _ in record["fs"]:
                if path in canaries:  # put it back, so the next attack and the final check start clean
                    Path(path).write_text("canary: must survive the corpus\n")
                    canary_state[path] = (Path(path).read_text(), os.stat(path).st_mtime_ns)
                    st = os.stat(path)
                    before_all[path] = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_uid, False)
                elif not path.startswith(str(REPO / ".git")):
                    remove(path)  # don't let one attack's leftovers rig the next
            if nested_namespace_descendants():
                time.sleep(1.0)
                record["notes"] += [f"a process it started (inside its PID namespace) outlived the run by 1 s: "
                                    f"{pid} {what}" for pid, what in nested_namespace_descendants().items()]
            record["net"] = [e for e in listener.events[events_before:]]
            health = run_once(CASES["control_reference"], "holdout", ctx)
            if not (health["result"] and is_green(health["result"])):
                record["notes"].append(f"harness broken after this attack: control_reference gave "
                                       f"{health['result'] or health['exc']!r}"[:600])
        report["serial_s"] = round(time.monotonic() - t0, 1)

        time.sleep(0.5)
        after_all = snapshot()
        report["fs"] = [c for c in fs_diff(before_all, after_all) if attributable(c, canaries)]
        report["sweep"] = sweep()
        report["canaries"] = {c: ("deleted" if not os.path.exists(c) else
                                  "intact" if (Path(c).read_text(), os.stat(c).st_mtime_ns) == canary_state[c]
                                  else "changed") for c in canaries}
        tags = {case["tag"]: name for name, case in CASES.items()}
        report["net_unattributed"] = []
        for event in listener.events + abstract.events:
            owner = next((tags[t] for t in tags if t.encode() in event["data"]), None)
            if owner:
                if event not in report["cases"][owner]["net"]:
                    report["cases"][owner]["net"].append(event)
            else:
                report["net_unattributed"].append(event)
        for change in report["fs"]:
            owner = next((n for t, n in tags.items() if t in change[1]), None)
            if owner and change not in report["cases"][owner]["fs"]:
                report["cases"][owner]["fs"].append(change)
        report["after"] = run_once(CASES["control_reference"], "holdout", ctx)
        report["total_s"] = round(time.time() - report["started"], 1)
        write_report(report)
        yield report
    finally:
        decoy.kill()
        decoy.wait()
        listener.close()
        abstract.close()
        for path in sweep():
            remove(path)
        for c in canaries:
            remove(c)
        for k in _ADDED_VARS:
            os.environ.pop(k, None)


# --- the verdicts -----------------------------------------------------------------------------------------------


def result_problems(case: dict, suite: str, run: dict) -> list[str]:
    """Everything wrong with one run of one case, as sentences."""
    problems = []
    result, name = run["result"], f"{case['name']} on {suite}"
    if run["exc"]:
        return [f"{name}: run raised or hung instead of returning a result: {run['exc']}"]
    if not isinstance(result, dict):
        return [f"{name}: result is not a dict: {result!r}"[:300]]
    missing = {"passed", "failed", "total", "error", "output", "isolation"} - set(result)
    if missing:
        problems.append(f"{name}: result lacks {sorted(missing)}")
    error = result.get("error")
    if error is not None and (not isinstance(error, str) or "\n" in error or not error.startswith(KINDS)):
        problems.append(f"{name}: error is not one line starting with a known kind: {error!r}"[:300])
    names = names_of_tests(SUITES[suite])
    failed = result.get("failed")
    if not isinstance(failed, list) or [n for n in names if n in failed] != failed:
        problems.append(f"{name}: failed is not a list of test names in definition order: {failed!r}"[:300])
    elif error is not None and not result.get("passed") and failed != names:
        problems.append(f"{name}: an error with nothing passed must fail every test, not {failed!r}"[:300])
    if too_slow(case, run):
        problems.append(f"{name}: run took {run['elapsed']} s (timeout {case['timeout']} s + {MARGIN} s margin)")
    dumped = json.dumps(result, default=repr)
    if len(dumped) > MAX_RESULT:
        problems.append(f"{name}: result is {len(dumped)} characters (limit {MAX_RESULT})")
    for var, secret in SECRET_VARS.items():
        if secret in dumped:
            problems.append(f"{name}: the caller's {var} appears in the result")
    if f"HOSTILE-BREACH-{case['tag']}" in dumped:
        at = dumped.index(f"HOSTILE-BREACH-{case['tag']}")
        problems.append(f"{name}: the attack reports a breach: {dumped[at:at + 200]}")
    output = str(result.get("output") or "")
    if case["flood"] and len(output) > 2000 and not CUT_NOTE.search(output):
        problems.append(f"{name}: {len(output)} characters of output and no note that it was cut")
    if run["alive_after_1s"]:
        problems.append(f"{name}: processes it started are alive 1 s after run returned: {run['alive_after_1s']}")
    elif run["alive_at_return"]:
        problems.append(f"{name}: processes it started were still alive when run returned "
                        f"(gone within 1 s): {run['alive_at_return']}")
    green = is_green(result)
    if case["kind"] == "control":
        if not green:
            problems.append(f"{name}: a correct control is not green: error={error!r} failed={failed!r} "
                            f"output={output[:400]!r}")
        return problems
    if suite == "holdout" and green:
        problems.append(f"{name}: ATTACK GOT A GREEN VERDICT on the held-out tests: {result!r}"[:600])
    if suite == "visible" and case["rigs_process"] and green:
        problems.append(f"{name}: a process-rigging attack got a green verdict on the visible tests: {result!r}"[:600])
    if suite == "visible" and case["visible_green"] is not None and green != case["visible_green"]:
        problems.append(f"{name}: expected visible verdict green={case['visible_green']}, got {green}: "
                        f"error={error!r} failed={failed!r}")
    if suite == "holdout" and case["error"] and not (isinstance(error, str) and error.startswith(tuple(case["error"]))):
        problems.append(f"{name}: expected error kind {case['error']}, got {error!r}")
    return problems


def case_problems(case: dict, record: dict) -> list[str]:
    problems = []
    for suite, run in record["runs"].items():
        problems += result_problems(case, suite, run)
    problems += [f"{case['name']}: touched outside its folder: {c}" for c in record["fs"]]
    problems += [f"{case['name']}: reached the loopback listener: {e}" for e in record["net"]]
    problems += [f"{case['name']}: {n}" for n in record["notes"]]
    return problems


def write_report(report: dict) -> None:
    rows = []
    for name, record in report["cases"].items():
        case = CASES[name]
        runs = record["runs"]

        def cell(suite):
            run = runs.get(suite)
            if not run:
                return "-"
            r = run["result"]
            if not isinstance(r, dict):
                return f"EXC {run['exc']}"[:60]
            verdict = "GREEN" if is_green(r) else (r.get("error") or f"{len(r.get('failed') or [])} failed")
            return f"{verdict} ({run['elapsed']:.1f}s)"

        problems = [] if record["skipped"] else case_problems(case, record)
        slow = {suite: run["elapsed"] for suite, run in record["batch"].items()}
        rows.append({"name": name, "category": case["category"], "kind": case["kind"], "skipped": record["skipped"],
                     "holdout": cell("holdout"), "visible": cell("visible"), "problems": problems,
                     "slow_in_batch": slow, "load": record.get("load")})
    REPORT_DIR.mkdir(exist_ok=True)
    attacks = [r for r in rows if r["kind"] == "attack"]
    held = sum(1 for r in attacks if not r["skipped"] and not r["problems"])
    skipped = sum(1 for r in attacks if r["skipped"])
    summary = {k: report.get(k) for k in ("isolation", "label", "summary", "controls_s", "parallel_s", "serial_s",
                                          "total_s", "fs", "sweep", "canaries", "net_unattributed", "ns_leftovers")}
    summary.update(attacks=len(attacks), held=held, skipped=skipped)
    name = f"sandbox-corpus-{report.get('label')}"
    (REPORT_DIR / f"{name}.json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=1, default=repr))
    lines = [f"isolation: {report.get('label')} ({report.get('summary')})", "",
             f"attacks held: {held}/{len(attacks)}, skipped with the level's reason: {skipped}; timings: controls "
             f"{report.get('controls_s')} s, parallel {report.get('parallel_s')} s, serial {report.get('serial_s')} s, "
             f"total {report.get('total_s')} s", "",
             "| case | category | held-out | visible | outcome |", "|---|---|---|---|---|"]
    for row in sorted(rows, key=lambda r: (r["kind"] != "control", r["category"] or "", r["name"])):
        outcome = "skipped: " + row["skipped"] if row["skipped"] else ("; ".join(row["problems"]) or "held")
        if row["slow_in_batch"]:
            outcome += f" (slow in the parallel batch: {row['slow_in_batch']} s, load {row['load']}; re-run alone)"
        lines.append(f"| {row['name']} | {row['category']} | {row['holdout']} | {row['visible']} | {outcome[:300]} |")
    (REPORT_DIR / f"{name}.md").write_text("\n".join(lines) + "\n")


# --- tests ------------------------------------------------------------------------------------------------------


REQUIRED_CATEGORIES = {
    "early exit", "BaseException", "forged records", "closed descriptors", "patching pytest", "patching unittest",
    "patching builtins", "shadowing pytest", "conftest/sitecustomize", "rigged equality", "reading expected values",
    "settrace", "gaming the visible tests", "infinite loop", "memory bomb", "process flood", "left-behind processes",
    "output flood", "crash", "filesystem outside the working folder", "network", "environment dump",
    "signalling the parent", "proxy injection",
}


def test_what_other_runs_of_the_lab_make_in_the_shared_folders_is_no_attacks_doing():
    for path in ("/tmp/spec2code-agent-4zhwsj89", "/tmp/spec2code-agent-4zhwsj89/runner",
                 "/dev/shm/spec2code-sandbox-x", "/tmp/spec2code-attack-daemon", "/dev/shm/spec2code-attack-fill-812-3",
                 "/tmp/spec2code-test-slot-note-7185"):
        assert not attributable(("created", path, RUN_UIDS[0]), [])
    for path in ("/tmp/hostile_marker_x/spec2code-agent-1", "/root/spec2code-agent-1", "/tmp/x/spec2code-agent-1"):
        assert attributable(("created", path, RUN_UIDS[0]), [])


def test_the_corpus_is_complete_and_well_formed():
    attacks = [c for c in CASES.values() if c["kind"] == "attack"]
    controls = [c for c in CASES.values() if c["kind"] == "control"]
    assert len(attacks) >= 40 and len(controls) >= 5
    assert REQUIRED_CATEGORIES <= {c["category"] for c in attacks}
    assert {c["category"] for c in controls} == {"control"}
    assert all(c["visible_green"] is True for c in controls)
    assert len({c["tag"] for c in CASES.values()}) == len(CASES)
    assert all(set(c["needs"]) <= WALLS for c in CASES.values())
    assert all(isinstance(c["endless"], bool) for c in CASES.values())
    assert not any(c["endless"] for c in controls)
    for case in CASES.values():
        compile(source_for(case, {"repo": "/r", "canaries": [], "protect": [1]}), case["name"], "exec")
    assert names_of_tests(VISIBLE_TESTS) and names_of_tests(harness.HOLDOUT_TESTS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_case(corpus, name):
    record = corpus["cases"][name]
    if record["skipped"]:
        pytest.skip(record["skipped"])
    problems = case_problems(CASES[name], record)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_the_corpus_left_nothing_behind(corpus):
    assert corpus["canaries"] and set(corpus["canaries"].values()) == {"intact"}, corpus["canaries"]
    assert corpus["fs"] == [], f"changes outside the working folders: {corpus['fs']}"
    assert corpus["sweep"] == [], f"attack artifacts on disk after the corpus: {corpus['sweep']}"
    assert corpus["net_unattributed"] == [], f"loopback connections: {corpus['net_unattributed']}"
    assert corpus["ns_leftovers"] == {}, f"processes started by solutions, alive after the runs: {corpus['ns_leftovers']}"
    assert corpus["decoy_alive"], "the process holding the secrets died before the batch ended: nothing read its environment"


@pytest.mark.slow
def test_run_still_works_after_the_corpus(corpus):
    after = corpus["after"]
    assert after["exc"] is None and is_green(after["result"]), after


@pytest.mark.slow
def test_the_corpus_runs_in_reasonable_time(corpus):
    # about a minute on a quiet 2-core machine; the bound only catches runs that hang
    assert corpus["total_s"] < 300, corpus["total_s"]
