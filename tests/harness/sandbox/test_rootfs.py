"""rootfs: the minimal root shows the runtime's folders even where the root is mounted over them (a Python under /tmp,
with the root mounted on /tmp, as the ladder's probe does)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from tests.paths import ROOT

INSIDE = """
import json, os, sys
sys.path.insert(0, {sandbox!r})
import linux, rootfs
if os.geteuid() != 0:
    linux.enter_user_namespace(0, 0)
rootfs.enter_minimal_root("/tmp", 0, 0, readonly=[{shown!r}], proc=False)
print(json.dumps({{"sees": sorted(os.listdir({shown!r})), "writable": os.access({shown!r}, os.W_OK)}}))
"""


def test_a_folder_under_the_mountpoint_is_shown_read_only_not_hidden_by_the_root():
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    shown = tempfile.mkdtemp(prefix="spec2code-test-runtime-", dir="/tmp")  # under the root's mountpoint
    try:
        with open(os.path.join(shown, "python"), "w") as f:
            f.write("a runtime's file\n")
        os.chmod(shown, 0o755)
        code = INSIDE.format(sandbox=str(ROOT / "harness" / "sandbox"), shown=shown)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(shown, ignore_errors=True)
    if "Operation not permitted" in done.stderr and os.geteuid() != 0:
        pytest.skip("no user namespaces here")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"sees": ["python"], "writable": False}
