"""Create marker files in the project tree, the home folder and /tmp, and append to the test's canary files."""
EXPECT = {"category": "filesystem outside the working folder", "serial": True, "needs": ["write_files", "shared_folders"]}
CTX = {}

import os

TAG = CTX.get("tag", "x")
canaries = CTX.get("canaries", [])
canary_dirs = {os.path.dirname(c) for c in canaries if os.path.exists(c)}  # the real folders, seen from here
reached = []
for place in (CTX.get("repo"), CTX.get("home"), CTX.get("tmp"), os.path.expanduser("~"), "/tmp", "/",
              os.path.dirname(os.getcwd())):
    if not place:
        continue
    try:
        with open(os.path.join(place, f"hostile_marker_{TAG}"), "w") as f:
            f.write("written from inside the sandbox\n")
        if place in canary_dirs:  # a private /tmp of the sandbox's own is fine; the caller's is not
            reached.append(place)
    except OSError:
        pass
for canary in canaries:
    try:
        with open(canary, "r+") as f:  # never create: only an existing canary counts
            f.seek(0, 2)
            f.write("tampered\n")
        os.utime(canary, (0, 0))
        reached.append(canary)
    except OSError:
        pass


def is_leap_year(year):
    if reached:
        return f"HOSTILE-BREACH-{TAG}: wrote to {reached}"
    return True
