"""A real browser (Debian's chromium, driven by Playwright) opens step 1 in the lab's JupyterLab and runs it."""

import os
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest

from lab.jupyter import launcher as launch
from tests.shipped import stubs_file

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
NOTEBOOK = ROOT / "notebooks" / "01_extract_code.ipynb"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# No first-run UI, no network on its own, no GPU, no sandbox (containers run as root).
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Every code cell's prompt shows an execution count, "[3]:", rather than "[ ]:" or "[*]:".
ALL_CELLS_RAN = """() => {
    const prompts = [...document.querySelectorAll(
        '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(prompt => /\\[\\d+\\]/.test(prompt.textContent));
}"""
WAIT_MS = 180_000  # JupyterLab and the kernel can be slow to start on a busy machine

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not Path(CHROMIUM).is_file(),
        reason="chromium is not installed: install it with `apt-get install chromium` (Debian/Ubuntu) to run this test",
    ),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """JupyterLab as `spec2code lab` starts it, on a free loopback port with a token, with the stubs as the agent.

    Workspaces and user settings go to a fresh folder, so what a developer left open or changed plays no part,
    and autosave is off there, so running the cells never writes outputs into the committed notebook.
    """
    launch.setup()
    port, token = launch.free_port(17000 + os.getpid() % 1000), secrets.token_hex(16)
    home = tmp_path_factory.mktemp("jupyterlab")
    env = dict(os.environ, SPEC2CODE_AGENT=str(stubs_file(home)))  # the stubs, whatever lab/agent.py holds
    autosave = home / "user-settings" / "@jupyterlab" / "docmanager-extension" / "plugin.jupyterlab-settings"
    autosave.parent.mkdir(parents=True)
    autosave.write_text('{"autosave": false}', encoding="utf-8")
    command = launch.server_command(port, token, open_browser=False) + [
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        f"--LabApp.user_settings_dir={home / 'user-settings'}",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        launch.wait_until_ready(process, port, token)
        yield port, token
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="install the dev extra: pip install -e '.[dev]'")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def test_step_1_runs_in_the_browser_and_shows_its_check(server, browser):
    port, token = server
    committed = NOTEBOOK.read_bytes()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    page.goto(launch.lab_url(port, token, NOTEBOOK.relative_to(ROOT).as_posix()))

    # The notebook opens on the lab's own kernel: no kernel picker, no first-run prompt.
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    notebook.locator(".jp-Cell").first.wait_for()
    kernel_idle = page.get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle")
    kernel_idle.wait_for()
    assert page.locator(".jp-Dialog").count() == 0, "a dialog (kernel picker?) opened with the notebook"

    page.click(".lm-MenuBar-item:has-text('Run')")
    page.click(".lm-Menu-item[data-command='runmenu:run-all']")
    page.wait_for_function(ALL_CELLS_RAN)

    check = notebook.locator(".jp-OutputArea-output .spec2code-check")
    check.scroll_into_view_if_needed()
    check.wait_for(state="visible")
    assert check.get_attribute("data-status") == "not started"
    assert "Step 1 · extract_code" in check.inner_text() and "not started" in check.inner_text()
    tried = notebook.locator(".jp-OutputArea-output .spec2code-try").first
    assert "is not started yet" in tried.inner_text()
    assert notebook.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert notebook.get_by_text("Traceback").count() == 0
    assert page.locator(".Toastify__toast").filter(has_text="news").count() == 0, "the news prompt appeared"

    check.evaluate("element => element.scrollIntoView({block: 'center'})")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-01_extract_code.png"))
    page.close()
    assert NOTEBOOK.read_bytes() == committed, "the browser saved outputs into the committed notebook"
