"""A seccomp filter, built with ctypes: the system calls sandboxed code is refused, whatever else walls it in.

Refused everywhere (the same list as isolate's, plus namespaces): the kernel keyrings (keyctl, add_key, request_key:
state that outlives a run), new namespaces (unshare, setns, clone with namespace flags; clone3 answers ENOSYS so
the C library falls back to clone), io_uring (it can make sockets behind the filter's back), AF_VSOCK sockets (not
namespaced), and file locks (flock and fcntl locks on a shared read-only file are a channel between runs).
Where a run has no network namespace of its own, sockets and System V / POSIX message-queue IPC are refused too.
Loaded by the sandbox server by name, like walls.py; Linux on x86-64 and arm64 only (elsewhere `install` says so).
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
import sys

PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
X32_BIT = 0x40000000
NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
AF_VSOCK = 40
LOCK_COMMANDS = (6, 7, 37, 38, 1024, 1026)  # F_SETLK, F_SETLKW, F_OFD_SETLK(W), F_SETLEASE, F_NOTIFY
# What platform.machine() says, read without importing `platform`, whose import cost some 2-3 ms of CPU in each
# process that loads the walls without pytest (the grader, every agent's process).
MACHINE = os.uname().machine

# (AUDIT_ARCH, system call numbers) per machine.
ARCHES = {
    "x86_64": (0xC000003E, {
        "socket": 41, "clone": 56, "fcntl": 72, "flock": 73, "shmget": 29, "semget": 64, "msgget": 68,
        "add_key": 248, "request_key": 249, "keyctl": 250, "unshare": 272, "setns": 308, "mq_open": 240,
        "io_uring_setup": 425, "clone3": 435,
    }),
    "aarch64": (0xC00000B7, {
        "socket": 198, "clone": 220, "fcntl": 25, "flock": 32, "shmget": 194, "semget": 190, "msgget": 186,
        "add_key": 217, "request_key": 218, "keyctl": 219, "unshare": 97, "setns": 268, "mq_open": 180,
        "io_uring_setup": 425, "clone3": 435,
    }),
}  # fmt: skip

# BPF opcodes: load word (absolute), jump if equal / if any bit set / if greater or equal, return.
LD, JEQ, JSET, JGE, RET = 0x20, 0x15, 0x45, 0x35, 0x06


def supported() -> str | None:
    """None if a filter can be installed here, else why not."""
    if not sys.platform.startswith("linux"):
        return f"no seccomp on {sys.platform}"
    if MACHINE not in ARCHES or sys.byteorder != "little":
        return f"no seccomp filter written for {MACHINE}"
    return None


def program(network: bool) -> list[tuple]:
    """The filter as (code, jump if true, jump if false, k) rules. `network`: the run has a network namespace of
    its own, so sockets and IPC need not be refused (the namespaces already keep them apart)."""
    arch, nr = ARCHES[MACHINE]
    deny, enosys = RET_ERRNO | errno.EPERM, RET_ERRNO | errno.ENOSYS
    refused = {nr[n]: deny for n in ("keyctl", "add_key", "request_key", "unshare", "setns", "flock")}
    refused.update({nr["io_uring_setup"]: enosys, nr["clone3"]: enosys})
    if not network:
        refused.update({nr[n]: deny for n in ("shmget", "semget", "msgget", "mq_open")})
    rules = [(LD, 0, 0, 4), (JEQ, 1, 0, arch), (RET, 0, 0, enosys), (LD, 0, 0, 0)]
    if MACHINE == "x86_64":
        rules += [(JGE, 0, 1, X32_BIT), (RET, 0, 0, enosys)]  # the x32 ABI would bypass every rule below
    for number, action in refused.items():
        rules += [(JEQ, 0, 1, number), (RET, 0, 0, action)]
    # clone: refused with any namespace flag (its first argument). fcntl: refused for lock commands (second).
    rules += [(JEQ, 0, 3, nr["clone"]), (LD, 0, 0, 16), (JSET, 0, 1, NAMESPACE_FLAGS), (RET, 0, 0, deny),
              (LD, 0, 0, 0)]
    rules += [(JEQ, 0, 2 * len(LOCK_COMMANDS) + 1, nr["fcntl"]), (LD, 0, 0, 24)]
    for command in LOCK_COMMANDS:
        rules += [(JEQ, 0, 1, command), (RET, 0, 0, deny)]
    rules += [(LD, 0, 0, 0)]
    # socket: AF_VSOCK always; every family where the run shares the machine's network.
    if network:
        rules += [(JEQ, 0, 3, nr["socket"]), (LD, 0, 0, 16), (JEQ, 0, 1, AF_VSOCK),
                  (RET, 0, 0, RET_ERRNO | errno.EAFNOSUPPORT)]
    else:
        rules += [(JEQ, 0, 1, nr["socket"]), (RET, 0, 0, RET_ERRNO | errno.EACCES)]
    rules += [(RET, 0, 0, RET_ALLOW)]
    return rules


class _Program(ctypes.Structure):  # struct sock_fprog
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_BUILT: dict = {}  # network -> the filter, packed (see prepare)


def prepare(network: bool) -> None:
    """Build the filter now, so that the processes this one forks only load it: built in each of a run's two
    processes, it cost about 0.4 ms and 100 page copies there (a ctypes class, a CDLL, the packing)."""
    if supported() is None:
        _built(network)


def install(network: bool) -> str | None:
    """Load the filter into this process and every process it starts, for good. None, or why it could not be.

    Needs no privilege after PR_SET_NO_NEW_PRIVS (which drop_privileges sets)."""
    reason = supported()
    if reason:
        return reason
    return _load(_built(network))


def _built(network: bool) -> tuple:
    if network not in _BUILT:
        _BUILT[network] = _packed(program(network))
    return _BUILT[network]


def load(rules: list[tuple]) -> str | None:
    """Load a filter of (code, jt, jf, k) rules into this process and every process it starts. None, or why not."""
    return _load(_packed(rules))


def _packed(rules: list[tuple]) -> tuple:
    """The rules as the kernel reads them: their buffer (kept alive here), the sock_fprog pointing at it, and prctl."""
    data = b"".join(struct.pack("HBBI", *rule) for rule in rules)
    buffer = ctypes.create_string_buffer(data, len(data))
    return buffer, _Program(len(rules), ctypes.addressof(buffer)), ctypes.CDLL(None, use_errno=True).prctl


def _load(packed: tuple) -> str | None:
    _buffer, prog, prctl = packed
    if prctl(PR_SET_SECCOMP, ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(prog), 0, 0) != 0:
        return f"seccomp refused: {ctypes.get_errno()}"
    return None
