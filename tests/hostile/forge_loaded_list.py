"""At import, send the test process a 'loaded' message that is a list, on every descriptor, then hang."""
EXPECT = {"category": "forged records", "rigs_process": True}
CTX = {}

import json
import os
import struct
import time

for message in ([["is_leap_year"], True], {"loaded": True, "names": [["is_leap_year"]]}):
    data = json.dumps(message).encode()
    for fd in range(3, 64):
        try:
            os.write(fd, struct.pack(">I", len(data)) + data)
        except OSError:
            pass
time.sleep(60)


def is_leap_year(year):
    return True
