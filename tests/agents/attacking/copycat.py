"""Attack: find a classmate's agent.py in the class folder and hand it in as its own."""

import glob
import os

FOUND = None
for pattern in ("/work/*/agent.py", "../*/agent.py", "../../*/*/agent.py", "/*/*/class/*/agent.py", "/tmp/*/class/*/agent.py",
                "/tmp/*/*/class/*/agent.py", "/tmp/*/*/*/class/*/agent.py"):
    for path in glob.glob(pattern):
        if os.path.abspath(path) != os.path.abspath(__file__) and "copycat" not in path:
            FOUND = path
            break
    if FOUND:
        break
if FOUND:
    exec(compile(open(FOUND).read(), FOUND, "exec"))  # noqa: S102 - the attack: run a classmate's work
