"""Connect to the test's loopback listener (TCP and UDP, IPv4 and IPv6) and send the case tag."""
EXPECT = {"category": "network", "needs": ["network"]}
CTX = {}

import socket

TAG = CTX.get("tag", "x").encode()
reached = []


def _try():
    port, udp = CTX.get("port"), CTX.get("udp_port")
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        if port:
            try:
                with socket.socket(family, socket.SOCK_STREAM) as s:
                    s.settimeout(0.5)
                    s.connect((host, port))
                    s.sendall(TAG)
                    reached.append(f"tcp {host}")
            except OSError:
                pass
        if udp:
            try:
                with socket.socket(family, socket.SOCK_DGRAM) as s:
                    s.sendto(TAG, (host, udp))
                    reached.append(f"udp {host}")
            except OSError:
                pass


_try()


def is_leap_year(year):
    if not reached:
        _try()
    if any(r.startswith("tcp") for r in reached):
        return f"HOSTILE-BREACH-{TAG.decode()}: connected {reached}"
    return True
