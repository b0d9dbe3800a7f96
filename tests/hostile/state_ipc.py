"""Keep notes between runs in System V shared memory, a POSIX message queue, /dev/shm and /run/lock; report any found.

The notes in folders need the machine's shared folders kept from the next run: the process level cannot."""
EXPECT = {"category": "state across runs", "serial": True, "needs": ["shared_folders"]}
CTX = {}

import ctypes
import os

TAG = CTX.get("tag", "x")
KEY = int(TAG[2:], 16) & 0x7FFFFFFF  # the same key in every run of this case
libc = ctypes.CDLL(None, use_errno=True)
found = []

shmid = libc.shmget(KEY, 4096, 0)  # a segment an earlier run made?
if shmid >= 0:
    found.append("System V shared memory")
else:
    libc.shmget(KEY, 4096, 0o1666)  # IPC_CREAT | 0666: left for the next run
libc.mq_open.restype = ctypes.c_int
queue = f"/hostile_mq_{TAG}".encode()
if libc.mq_open(queue, os.O_RDONLY) >= 0:
    found.append("a POSIX message queue")
else:
    libc.mq_open(queue, os.O_RDONLY | os.O_CREAT, 0o666, None)
for folder in ("/dev/shm", "/run/lock"):
    note = f"{folder}/hostile_marker_{TAG}"
    if os.path.exists(note):
        found.append(folder)
    else:
        try:
            with open(note, "w") as f:
                f.write("left by an earlier run\n")
            os.chmod(note, 0o666)
        except OSError:
            pass


def is_leap_year(year):
    if found:
        return f"HOSTILE-BREACH-{TAG}: an earlier run's notes in {found}"
    return True
