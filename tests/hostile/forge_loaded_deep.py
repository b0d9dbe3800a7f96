"""At import, send the test process a 'loaded' message nested a hundred thousand levels deep, then exit."""
EXPECT = {"category": "forged records", "rigs_process": True}
CTX = {}

import os
import struct

data = b"[" * 100_000 + b"]" * 100_000
for fd in range(3, 64):
    try:
        os.write(fd, struct.pack(">I", len(data)) + data)
    except OSError:
        pass
os._exit(0)


def is_leap_year(year):
    return True
