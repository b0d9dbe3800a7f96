"""See the caller's files (canaries) or leave the working folder: .. walks, /proc/self/root and /proc/1/root, and the classic chroot escape."""
EXPECT = {"category": "filesystem outside the working folder", "serial": True, "needs": ["read_files"]}
CTX = {}

import os

TAG = CTX.get("tag", "x")
found = []
repo = CTX.get("repo", "/nonexistent")
for candidate in (repo, "../" * 30 + repo.lstrip("/"), "/proc/1/root" + repo, "/proc/self/root" + repo,
                  f"/proc/{os.getppid()}/root" + repo, f"/proc/{os.getppid()}/cwd"):
    try:
        if os.path.exists(os.path.join(candidate, "harness")):
            found.append(candidate)
    except OSError:
        pass
found += [f"sees {c}" for c in CTX.get("canaries", []) if os.path.exists(c)]
if os.getuid() == 0 and not found:  # root inside a chroot: the textbook escape
    try:
        os.makedirs("hostile_jail", exist_ok=True)
        keep = os.open(".", os.O_RDONLY)
        os.chroot("hostile_jail")
        os.fchdir(keep)
        for _ in range(64):
            os.chdir("..")
        os.chroot(".")
        if os.path.exists(repo + "/harness"):
            found.append("chroot escape")
    except OSError:
        pass


def is_leap_year(year):
    if found:
        return f"HOSTILE-BREACH-{TAG}: reached the project tree via {found}"
    return True
