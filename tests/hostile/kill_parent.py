"""SIGKILL the parent process (whatever runs the solution), unless it is the test process itself."""
EXPECT = {"category": "signalling the parent", "serial": True, "needs": ["signals"]}
CTX = {}

import os
import signal

TAG = CTX.get("tag", "x")
note = []
ppid = os.getppid()
if ppid > 1 and ppid not in CTX.get("protect", []):
    try:
        os.kill(ppid, signal.SIGKILL)
        note.append(f"killed {ppid}")
    except OSError:
        pass
for pid in CTX.get("protect", []):
    try:
        os.kill(pid, 0)  # signal 0: only asks whether it *could* signal the caller
        note.append(f"could signal protected pid {pid}")
    except OSError:
        pass


def is_leap_year(year):
    if any(n.startswith("could") for n in note):
        return f"HOSTILE-BREACH-{TAG}: {note}"
    return True
