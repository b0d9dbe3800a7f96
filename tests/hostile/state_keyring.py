"""Keep a note between runs in the kernel's keyrings (user and session keyrings); report one found."""
EXPECT = {"category": "state across runs", "serial": True}
CTX = {}

import ctypes

TAG = CTX.get("tag", "x")
libc = ctypes.CDLL(None, use_errno=True)
KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING, KEYCTL_SEARCH = -4, -3, 10
found = []
for keyring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING):
    name = f"hostile-{TAG}".encode()
    if libc.syscall(250, KEYCTL_SEARCH, keyring, b"user", name, 0) >= 0:  # keyctl(KEYCTL_SEARCH, ...)
        found.append(keyring)
    else:
        libc.syscall(248, b"user", name, b"left by an earlier run", 22, keyring)  # add_key(...)


def is_leap_year(year):
    if found:
        return f"HOSTILE-BREACH-{TAG}: an earlier run's note in keyrings {found}"
    return True
