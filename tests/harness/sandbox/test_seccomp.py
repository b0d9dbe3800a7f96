"""The seccomp filter refuses keyrings, namespaces, io_uring and locks, and sockets where a run shares the network."""

import json
import os
import subprocess
import sys

import pytest

from harness.sandbox import seccomp
from tests.paths import ROOT

pytestmark = pytest.mark.skipif(seccomp.supported() is not None, reason=str(seccomp.supported()))

CHECK = """
import ctypes, errno, fcntl, json, os, socket, sys, threading
sys.path.insert(0, {sandbox!r})
import seccomp
ctypes.CDLL(None).prctl(38, 1, 0, 0, 0)
if {prepared}:  # as the sandbox server does before it forks a run: the run's processes only load it
    seccomp.prepare(network={network})
    built = seccomp._BUILT[{network}]
assert seccomp.install(network={network}) is None
assert not {prepared} or seccomp._BUILT[{network}] is built
libc = ctypes.CDLL(None, use_errno=True)
def refused(call):
    return call() == -1 and ctypes.get_errno() in (errno.EPERM, errno.ENOSYS, errno.EACCES)
out = {{"keyctl": refused(lambda: libc.syscall(250, 0, -3, 0)), "unshare": refused(lambda: libc.unshare(0x10000000))}}
with open(sys.executable, "rb") as f:
    try:
        fcntl.flock(f, fcntl.LOCK_SH)
        out["flock"] = False
    except OSError:
        out["flock"] = True
try:
    socket.socket().close()
    out["socket"] = False
except OSError:
    out["socket"] = True
worker = threading.Thread(target=lambda: None)
worker.start()
worker.join()
out["threads"] = True
print(json.dumps(out))
"""


@pytest.mark.parametrize("prepared", [False, True], ids=["built when installed", "built before"])
@pytest.mark.parametrize("network", [True, False])
def test_the_filter_refuses_what_it_says_and_threads_still_start(network, prepared):
    code = CHECK.format(sandbox=str(ROOT / "harness" / "sandbox"), network=network, prepared=prepared)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    facts = json.loads(done.stdout)
    assert facts == {"keyctl": True, "unshare": True, "flock": True, "socket": not network, "threads": True}
