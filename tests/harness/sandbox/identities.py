"""Other identities to run sandbox code as: a normal user the set-up creates, and root with Docker's default walls.

Docker's default: only Docker's 14 capabilities (CAP_SYS_ADMIN among those dropped, with capsh), and its seccomp
profile's refusal of new namespaces (unshare, setns, clone with namespace flags), which this helper installs itself.
Both need root. Each identity needs a Python every user can run: this one if its folders are readable by all,
else the system's Python of the same version, in a small virtual environment that points at this one's packages.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import functools
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the project folder (this file also runs as a script)

USER = "spec2code-test"
DOCKER_CAPS = {
    "chown", "dac_override", "fsetid", "fowner", "mknod", "net_raw", "setgid", "setuid", "setfcap", "setpcap",
    "net_bind_service", "sys_chroot", "kill", "audit_write",
}
SANDBOX = ROOT / "harness" / "sandbox"


def need_root() -> str | None:
    """None if these identities can be had here, else why not."""
    if not sys.platform.startswith("linux"):
        return "Linux only"
    if os.geteuid() != 0:
        return "needs root, to create a user or drop capabilities"
    for tool, package in (("capsh", "libcap2-bin"), ("setpriv", "util-linux"), ("useradd", "passwd")):
        if not shutil.which(tool):
            return f"needs {tool} (Debian package {package})"
    return None


def _readable_by_all(path) -> bool:
    """True if any user can read `path` where it really is (links resolved), every folder on the way included."""
    from harness.sandbox.reachable import readable_by_all  # here, not above: this file also runs as a bare script

    return readable_by_all(os.path.realpath(path))


def shared_folder(prefix: str) -> str:
    """A new folder where every user can reach it, removed when the test session ends: in the temporary folder,
    unless that is private (a TMPDIR of mode 700, as pam_tmpdir sets it)."""
    from harness.sandbox.reachable import scratch

    folder = tempfile.mkdtemp(prefix=prefix, dir=scratch())
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def runtime() -> str | None:
    """A Python of this version that every user can run (this one, or the system's), bare; None if there is none."""
    if _readable_by_all(sys.executable) and _readable_by_all(os.path.dirname(os.__file__)):
        return sys.executable
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system = shutil.which(version, path="/usr/bin:/usr/local/bin:/bin")
    return system if system and _readable_by_all(system) else None


@functools.lru_cache(maxsize=1)
def home() -> Path:
    """The project folder as every user can read it: this one, or (in a private folder, such as a clone in a home
    folder of mode 700) a copy of its sources made once per test session."""
    if all(_readable_by_all(ROOT / name) for name in ("harness/__init__.py", "tests/harness/sandbox/_beside.py")):
        return ROOT
    copy = Path(shared_folder("spec2code-test-project-"))
    skip = shutil.ignore_patterns(".*", "__pycache__", "node_modules", "test-artifacts", "*.egg-info")
    shutil.copytree(ROOT, copy / "lab", ignore=skip)
    subprocess.run(["chmod", "-R", "a+rX", str(copy)], check=True)
    return copy / "lab"


@contextlib.contextmanager
def reference_made(mode: int):
    """The folder of the lab's solutions/ where these identities read it (in home()) given `mode`, put back after:
    the grader refuses to grade at the `user` level while every user can read the reference (0o700 is the fix)."""
    reference = home() / "solutions"
    was = stat.S_IMODE(reference.stat().st_mode)
    reference.chmod(mode)
    try:
        yield reference
    finally:
        reference.chmod(was)


def script(relative: str) -> str:
    """A file of the project (a path relative to its folder), where every user can read it."""
    return str(home() / relative)


def _distributions_for_tests() -> set:
    """pytest and pytest-timeout with everything they require here: what a test run needs beyond the lab."""
    from importlib import metadata

    from packaging.requirements import Requirement

    seen, todo = set(), ["pytest", "pytest-timeout"]
    while todo:
        name = todo.pop()
        if name.lower().replace("_", "-") in seen:
            continue
        seen.add(name.lower().replace("_", "-"))
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen


def _copy_distributions(site: str) -> None:
    from importlib import metadata

    for name in _distributions_for_tests():
        dist = metadata.distribution(name)
        for entry in dist.files or []:
            if entry.parts[0] == ".." or "__pycache__" in entry.parts:
                continue
            target = os.path.join(site, *entry.parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(dist.locate_file(entry), target)


@functools.lru_cache(maxsize=1)
def python() -> str | None:
    """A Python every user can run, with pytest and the lab (from home()); None if there is none.

    This one when every user can reach it and its packages; else a small virtual environment of a Python every
    user can run, which points at this one's packages when they can read them, or holds a copy of pytest's."""
    system = runtime()
    if system is None:
        return None
    ours = [p for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    packages_readable = all(_readable_by_all(p) for p in ours)
    here = _readable_by_all(os.path.dirname(os.path.abspath(sys.executable)))
    if system == sys.executable and here and packages_readable and home() == ROOT:
        return sys.executable
    venv = shared_folder("spec2code-test-python-")  # made once per test session, gone with it
    subprocess.run([system, "-m", "venv", "--without-pip", venv], check=True, capture_output=True)
    site = subprocess.run([f"{venv}/bin/python", "-c", "import site; print(site.getsitepackages()[0])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    if not packages_readable:
        _copy_distributions(site)
    with open(os.path.join(site, "spec2code-test.pth"), "w") as f:
        f.write("\n".join([*(ours if packages_readable else []), str(home())]) + "\n")
    subprocess.run(["chmod", "-R", "a+rX", venv], check=True)
    return f"{venv}/bin/python"


def normal_user() -> int:
    """The uid of a normal user made for these tests (created once, by one test process at a time)."""
    with open(f"/tmp/{USER}.lock", "w") as lock:  # /tmp itself: each worker of a parallel run has a TMPDIR of its own
        fcntl.flock(lock, fcntl.LOCK_EX)  # the workers of a parallel run (or two runs) must not both make the user
        found = subprocess.run(["id", "-u", USER], capture_output=True, text=True)
        if found.returncode != 0:
            subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
                           check=True, capture_output=True)
            found = subprocess.run(["id", "-u", USER], capture_output=True, text=True, check=True)
        return int(found.stdout)


def as_normal_user(argv: list[str]) -> list[str]:
    uid = normal_user()
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]


def as_docker_default(argv: list[str], *, refuse_namespaces: bool = True, without=()) -> list[str]:
    """Root with only Docker's default capabilities (but those named in `without`, such as "setuid") and (unless
    told otherwise) namespaces refused, as Docker does."""
    out = subprocess.run(["capsh", "--print"], capture_output=True, text=True, check=True).stdout
    bounding = next(line for line in out.splitlines() if line.startswith("Bounding set")).split("=", 1)[1]
    kept = DOCKER_CAPS - set(without)
    drop = [cap for cap in bounding.split(",") if cap.removeprefix("cap_") not in kept]
    inner = [shutil.which("capsh"), f"--drop={','.join(drop)}", "--", "-c", shlex.join(argv)]
    return refusing_namespaces(inner) if refuse_namespaces else inner


def refusing_namespaces(argv: list[str]) -> list[str]:
    """`argv` with new namespaces refused, as Docker's seccomp profile does (root installs the filter: then
    `argv` may switch to another user, which keeps it)."""
    return [sys.executable, __file__, "--refuse-namespaces", *argv]


def run(command: list[str], *, timeout: float = 600, env: dict | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run `command` in the project as every user can read it (home()), or in `cwd`, with a minimal environment."""
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", "LANG": "C.UTF-8", **(env or {})}
    return subprocess.run(command, cwd=cwd or home(), capture_output=True, text=True, timeout=timeout,
                          env=environment)


def _refuse_namespaces_then_exec(argv: list[str]) -> None:
    """Install Docker's refusal of new namespaces (its seccomp profile, for a process without CAP_SYS_ADMIN), then
    become `argv`. Built from the sandbox's own seccomp module, read by path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("seccomp", SANDBOX / "seccomp.py")
    sc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sc)
    _, nr = sc.ARCHES[sc.MACHINE]
    deny, enosys = sc.RET_ERRNO | errno.EPERM, sc.RET_ERRNO | errno.ENOSYS
    rules = [(sc.LD, 0, 0, 0)]
    for name, action in (("unshare", deny), ("setns", deny), ("clone3", enosys)):
        rules += [(sc.JEQ, 0, 1, nr[name]), (sc.RET, 0, 0, action)]
    rules += [(sc.JEQ, 0, 3, nr["clone"]), (sc.LD, 0, 0, 16), (sc.JSET, 0, 1, sc.NAMESPACE_FLAGS),
              (sc.RET, 0, 0, deny), (sc.RET, 0, 0, sc.RET_ALLOW)]
    refused = sc.load(rules)
    if refused:
        sys.exit(refused)
    os.execvp(argv[0], argv)


if __name__ == "__main__" and sys.argv[1:2] == ["--refuse-namespaces"]:
    _refuse_namespaces_then_exec(sys.argv[2:])
