"""Delete the test's canary files (in the project tree, the home folder and /tmp), found by name."""
EXPECT = {"category": "filesystem outside the working folder", "serial": True, "needs": ["write_files"]}
CTX = {}

import os

TAG = CTX.get("tag", "x")
deleted = []
targets = list(CTX.get("canaries", []))
for place in (CTX.get("repo"), CTX.get("home"), CTX.get("tmp"), "/tmp", os.path.expanduser("~")):
    try:
        targets += [os.path.join(place, n) for n in os.listdir(place) if "hostile_canary" in n]
    except (OSError, TypeError):
        pass
for target in targets:
    try:
        os.unlink(target)
        deleted.append(target)
    except OSError:
        try:  # can't delete? try to at least empty it (never creating it)
            os.close(os.open(target, os.O_WRONLY | os.O_TRUNC))
            deleted.append(target)
        except OSError:
            pass


def is_leap_year(year):
    if deleted:
        return f"HOSTILE-BREACH-{TAG}: deleted {deleted}"
    return True
