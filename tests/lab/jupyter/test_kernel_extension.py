"""The lab's kernel: its own errors read as messages, and what it reports is what the notebooks already hold."""

import json
import sys
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

from lab.jupyter import install
from tests.paths import ROOT


@pytest.fixture(scope="module")
def kernel():
    install.register_kernel(Path(sys.prefix))
    manager, client = start_new_kernel(kernel_name=install.KERNEL_NAME, startup_timeout=120)
    yield client
    client.stop_channels()
    manager.shutdown_kernel(now=True)


@pytest.mark.slow
def test_opening_a_notebook_on_the_labs_kernel_changes_nothing_in_it(kernel):
    """JupyterLab writes the kernel's language_info and kernelspec into a notebook it opens: a notebook that
    already holds them stays as committed, and does not show as unsaved."""
    kernel.kernel_info()
    reported = kernel.get_shell_msg(timeout=60)["content"]["language_info"]
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        metadata = json.loads(path.read_text(encoding="utf-8"))["metadata"]
        assert metadata["language_info"] == reported, path.name
        assert metadata["kernelspec"] == {
            "name": install.KERNEL_NAME, "display_name": install.KERNEL_DISPLAY_NAME, "language": "python",
        }, path.name


@pytest.mark.slow
def test_the_labs_own_errors_show_as_their_message(kernel):
    msg_id = kernel.execute("from harness.errors import LabError\nraise LabError('set SPEC2CODE_MODEL to offline')")
    outputs = []
    while True:
        msg = kernel.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] in ("display_data", "error"):
            outputs.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    assert [m["msg_type"] for m in outputs] == ["display_data"]
    assert "LabError: set SPEC2CODE_MODEL to offline" in outputs[0]["content"]["data"]["text/plain"]
