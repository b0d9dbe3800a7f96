"""Create marker files in the project tree, the home folder and /tmp, and append to the test's canary files."""
EXPECT = {"category": "filesystem outside the working folder", "serial": True}
CTX = {}

import os

TAG = CTX.get("tag", "x")
reached = []
for place in (CTX.get("repo"), CTX.get("home"), CTX.get("tmp"), os.path.expanduser("~"), "/tmp", "/",
              os.path.dirname(os.getcwd())):
    if not place:
        continue
    try:
        with open(os.path.join(place, f"hostile_marker_{TAG}"), "w") as f:
            f.write("written from inside the sandbox\n")
        reached.append(place)
    except OSError:
        pass
for canary in CTX.get("canaries", []):
    try:
        with open(canary, "a") as f:
            f.write("tampered\n")
        os.utime(canary, (0, 0))
        reached.append(canary)
    except OSError:
        pass


def is_leap_year(year):
    outside = [p for p in reached if p not in (os.path.dirname(os.getcwd()),)]
    if outside:
        return f"HOSTILE-BREACH-{TAG}: wrote to {outside}"
    return True
