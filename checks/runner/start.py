"""Start an agent's child behind the strongest walls this machine allows (the sandbox's ladder), then become it.

Run by link.py as `python -I start.py GRADER STATUS_FD LEVEL VIA UID MOUNTPOINT AGENT -- python -I child.py ...`.
It dies with GRADER (the grader's process id), puts the walls up (LEVEL and VIA are what the sandbox's ladder chose
for this machine; UID is the child's own user, from the sandbox's reserved range, when the lab runs as root), says
on the status pipe which level it reached, and becomes the child (see `become`). Any failure while putting up walls
ends it there, before the agent's code is read: it fails closed.

What the child sees at the namespaces level: the Python runtime, the lab's harness/ and this folder (read-only), the
agent file itself (read-only), an empty /work and /tmp; no project tree (no reference agent, no class folder), no
network, no other process. At the user level it sees the file system as any user does, from MOUNTPOINT, its own
folder: there the grader has put a copy of what it needs, AGENT among it, that only its user may read (reach.py).
"""

import importlib.util
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # the project folder (or site-packages, when the lab is installed)
WALLS_FAILED = 71  # exit status: the walls could not be put up, so the agent was not run
LIMITS = {"cpu_seconds": 600, "file_bytes": 64 << 20, "processes": 256, "files": 256}
MEMORY = 2 << 30  # bytes of address space the child may add to what it maps when it starts
SANDBOX_MODULES = ("linux", "walls", "reachable", "rootfs", "seccomp", "levels")  # what sandbox_modules loads, by name


def sandbox_modules():
    """The sandbox's linux.py and walls.py, by name: this process has no business with the `harness` package."""
    sys.path.insert(0, os.path.join(ROOT, "harness", "sandbox"))
    try:
        import linux
        import walls
    finally:
        sys.path.pop(0)
    return linux, walls


def hidden_packages(agent: str) -> list[str]:
    """The lab's own packages that the runtime's folders hold when the lab is installed (not a source tree): the
    reference agent and the learner's side are not the child's to read (unless the agent graded is in one)."""
    found = []
    for name in ("solutions", "lab"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            found += [os.path.realpath(p) for p in spec.submodule_search_locations]
    return [folder for folder in found if not os.path.realpath(agent).startswith(folder + os.sep)]


def put_up(linux, walls, level: str, via: str, uid: int, mountpoint: str, agent: str) -> dict:
    ladder = walls.Ladder(level, via)
    limits = None
    if ladder.own_users:  # a per-process limit only binds where the child has a user of its own
        limits = dict(LIMITS, memory_bytes=linux.current_address_space() + MEMORY)
    return walls.enter(  # at the namespaces level, this goes on in the first process of a new PID namespace
        ladder, uid, uid, mountpoint=mountpoint, workdir="/work" if ladder.namespaces else mountpoint,
        readonly=[os.path.realpath(sys.prefix), os.path.join(ROOT, "harness"), HERE, os.path.realpath(agent)],
        hidden=hidden_packages(agent), limits=limits,
    )


def main(argv: list[str]) -> None:
    grader, status_fd, level, via, uid, mountpoint, agent = argv[:7]
    command = argv[argv.index("--") + 1 :]
    status = int(status_fd)
    try:
        linux, walls = sandbox_modules()
        linux.attach(int(grader))  # the grader may be killed while this starts: then nothing is run at all
        reached = put_up(linux, walls, level, via, int(uid), mountpoint, agent)
    except BaseException as exc:  # noqa: BLE001 - any failure: the agent is not run (fail closed)
        _say(status, {"failed": f"{type(exc).__name__}: {exc}"[:300]})
        os._exit(WALLS_FAILED)
    _say(status, reached)
    os.close(status)
    become(command)


def become(command: list[str]) -> None:
    """Go on as the child. When it is `python -I SCRIPT ...` on this Python, as the grader starts it, run SCRIPT here
    as that command would (starting Python again cost 10-20 ms of CPU an agent); anything else is exec'd. Either way
    the walls put up above stay, with this process."""
    python, flag, script = (command + ["", "", ""])[:3]
    if flag != "-I" or not script.endswith(".py") or os.path.realpath(python) != os.path.realpath(sys.executable):
        os.execv(command[0], command)
    for name in SANDBOX_MODULES:  # loaded by name for the walls: the child's code sees the lab's own harness only
        sys.modules.pop(name, None)
    sys.argv = command[2:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")


def _say(fd: int, message: dict) -> None:
    try:
        os.write(fd, json.dumps(message).encode() + b"\n")
    except OSError:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
