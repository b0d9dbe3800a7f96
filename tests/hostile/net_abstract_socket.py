"""Talk over abstract UNIX sockets: connect to the test's listener (another process on the machine), and listen for
other runs."""
EXPECT = {"category": "network", "needs": ["network"]}
CTX = {}

import socket

TAG = CTX.get("tag", "x")
reached = []
try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        s.connect("\0" + CTX.get("abstract", "hostile-nothing"))
        s.sendall(TAG.encode())
        reached.append("the test's abstract socket")
except OSError:
    pass


def is_leap_year(year):
    if reached:
        return f"HOSTILE-BREACH-{TAG}: {reached}"
    return True
