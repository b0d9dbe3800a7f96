"""Start an agent's child behind walls: no network, user nobody, a read-only view of the lab and the agent.

Run as `python -I start.py AGENT -- python -I child.py ... AGENT ...` by parent.py. Where walls can be had (Linux,
as root) it puts them up and then becomes the child with exec; elsewhere it becomes the child as it is. Either way the grade is decided in the parent from what crosses the pipes; the walls keep a hostile
submission from changing the grader's files, signalling it, or reaching the network while it is graded.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the project folder
WALLS_DIR = "/tmp/spec2code-walls"  # an empty mount point; the walled view lives only in the child's namespace


def _isolation():
    sys.path.insert(0, os.path.join(ROOT, "harness", "sandbox"))
    try:
        import walls
    finally:
        sys.path.pop(0)
    return walls


def put_up_walls(agent: str) -> str | None:
    """Wall this process in, with a copy of the agent file in its working folder /work.

    Return None, or why it could not be done."""
    isolation = _isolation()
    reason = isolation.namespaces_available()
    if reason:
        return reason
    try:
        os.makedirs(WALLS_DIR, mode=0o755, exist_ok=True)
        if not isolation.enter_network_void():
            return "could not make a network namespace"
        with open(agent, "rb") as f:
            source = f.read()
        readonly = [os.path.realpath(sys.prefix), ROOT]
        isolation.enter_minimal_root(WALLS_DIR, isolation.NOBODY, isolation.NOBODY, readonly=readonly, proc=False)
        with open(os.path.join("/work", os.path.basename(agent)), "wb") as f:
            f.write(source)
        isolation.limit_resources(
            cpu_seconds=600, memory_bytes=isolation.current_address_space() + (2 << 30),
            file_bytes=64 << 20, processes=256, files=256,
        )
        isolation.drop_privileges(isolation.NOBODY, isolation.NOBODY)
    except OSError as exc:
        return f"walls failed: {exc}"
    isolation.die_with_parent()
    return None


def main(argv: list[str]) -> None:
    agent, rest = argv[0], argv[argv.index("--") + 1 :]
    if put_up_walls(agent) is None:
        walled = os.path.join("/work", os.path.basename(agent))
        rest = [walled if arg == agent else arg for arg in rest]
    os.execv(rest[0], rest)


if __name__ == "__main__":
    main(sys.argv[1:])
