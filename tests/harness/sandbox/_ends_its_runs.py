"""Run as a script under another identity (see identities.py): runs whose solutions fork in a tight loop, leave a
sleeper, or leave a thread behind a zombie, each checked the moment run() returns; one line of JSON."""

import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
import harness  # noqa: E402
from tests.processes import live  # noqa: E402

TAG = f"s2c-{uuid.uuid4().hex[:10]}"  # the name every process of these runs goes by (fork keeps it)
NAMED = f"""
import ctypes, os, platform, signal, threading, time
ctypes.CDLL(None).prctl(15, b"{TAG}", 0, 0, 0)
"""
SOLUTIONS = {
    "fork_loop": NAMED + """
if os.fork() == 0:
    os.setsid()
    while True:
        try:
            os.fork()
        except OSError:
            pass
""",
    "sleeper": NAMED + """
if os.fork() == 0:
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    time.sleep(60)
    os._exit(0)
""",
    "thread_behind_a_zombie": NAMED + """
if os.fork() == 0:
    os.setsid()
    threading.Thread(target=time.sleep, args=(60,)).start()
    ctypes.CDLL(None).syscall({"x86_64": 60, "aarch64": 93}[platform.machine()], 0)  # its first thread ends
""",
}
TESTS = "def test_it():\n    assert is_leap_year(2000)\n"
ROUNDS = {"fork_loop": 4, "sleeper": 2, "thread_behind_a_zombie": 2}


def alive() -> list[str]:
    """Every thread named TAG that is neither a zombie nor dead: "pid/tid state"."""
    return [f"{task} {fields['State']}" for task, fields in live(lambda fields: fields.get("Name") == TAG).items()]


left, levels = {}, set()
for name, rounds in ROUNDS.items():
    for _ in range(rounds):
        result = harness.run(SOLUTIONS[name] + "\ndef is_leap_year(year):\n    return True\n", TESTS, timeout=2)
        levels.add(result["isolation"])
        now = alive()  # the moment run() returned
        if now:
            left.setdefault(name, []).append(now)
print(json.dumps({"isolation": sorted(levels), "left": left, "euid": os.geteuid()}))
