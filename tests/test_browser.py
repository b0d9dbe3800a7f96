"""A real browser (Debian's chromium, driven by Playwright) uses the lab's JupyterLab as a student does: the
layout it opens, step 1 run, a terminal, a file reset on disk, a notebook closed."""

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from lab.jupyter import install, kernels
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
ALL_CELLS_RAN = """notebook => {
    const prompts = [...notebook.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(prompt => /\\[\\d+\\]/.test(prompt.textContent));
}"""
WAIT_MS = 180_000  # JupyterLab and the kernel can be slow to start on a busy machine
RELOAD_SECONDS = 20  # the reload extension looks every 2 s; a busy machine may take a few rounds

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

    Layouts and user settings go to a fresh folder (the lab's layout is put there as setup does), so what a
    developer left open or changed plays no part; autosave is off, as the lab sets it, so running cells never
    writes outputs into the committed notebooks.
    """
    launch.setup()
    port, token = launch.free_port(17000 + os.getpid() % 1000), secrets.token_hex(16)
    home = tmp_path_factory.mktemp("jupyterlab")
    install.install_workspace(home / "workspaces")
    stubs = stubs_file(home)  # the stubs, whatever lab/agent.py holds
    env = dict(launch.server_environment(token), SPEC2CODE_AGENT=str(stubs))
    command = launch.server_command(port, open_browser=False) + [
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
        f"--LabApp.user_settings_dir={home / 'user-settings'}",
    ]
    with open(home / "server.log", "wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        launch.wait_until_ready(process, port, token)
        yield port, token, home
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


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    yield page
    page.close()


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"browser-{name}.png"))


def tab(page, name):
    return page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab").filter(has_text=name).first


# What a tab shows: its label, or the title the lab's extension draws in its place.
TAB_SHOWS = """tab => {
    const label = tab.querySelector('.lm-TabBar-tabLabel');
    const drawn = getComputedStyle(label, '::after').content;
    return drawn && drawn !== 'none' ? JSON.parse(drawn) : label.textContent;
}"""


def alone(port, token, path):
    """The address of one file opened by itself: notebooks that earlier tests left in the layout would each start
    a kernel as the page loads, and the lab, keeping two, might stop the kernel of the file under test."""
    return launch.lab_url(port, token, path) + "&reset"


def open_in_editor(page, port, token, agent, showing):
    """Open agent.py by its address and wait until its editor shows `showing`; return its tab and editor."""
    path = agent.relative_to(ROOT).as_posix()
    page.goto(alone(port, token, path))
    agent_tab = page.locator(f".lm-DockPanel-tabBar .lm-TabBar-tab[title*='{path}']")
    agent_tab.wait_for()
    editor = page.locator(f"[id='{agent_tab.get_attribute('data-id')}'] .cm-content")
    editor.filter(has_text=showing).wait_for()
    return agent_tab, editor


def rest(port, token, path):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def kernels_once_settled(port, token):
    """The kernels running once the lab has stopped those it stops after a cell run (a kernel stops in a second or
    two; one started moments ago is left alone a few seconds more)."""
    deadline = time.monotonic() + kernels.NEW_FOR + 60
    while True:
        running = [k["id"] for k in rest(port, token, "/api/kernels")]
        if len(running) <= kernels.MOST_KERNELS or time.monotonic() > deadline:
            return running
        time.sleep(0.5)


def test_the_lab_opens_the_start_notebook_with_agent_py_beside_it(server, page):
    port, token, _ = server
    committed = (ROOT / launch.START_NOTEBOOK).read_bytes()
    page.goto(launch.lab_url(port, token))  # the address spec2code lab prints

    notebook_tab, agent_tab = tab(page, "00_start.ipynb"), tab(page, "agent.py")
    notebook_tab.wait_for()
    agent_tab.wait_for()
    page.get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle").wait_for()
    assert "lab/agent.py" in agent_tab.get_attribute("title")  # the student's file, not some other agent.py
    page.locator(".jp-FileEditor .cm-content").filter(has_text="def extract_code(reply)").wait_for()
    notebook_box, agent_box = notebook_tab.bounding_box(), agent_tab.bounding_box()
    assert agent_box["x"] > notebook_box["x"] + 300, "agent.py is not beside the notebook, to its right"
    assert page.locator(".jp-FileEditor").first.is_visible() and page.locator(".jp-NotebookPanel").first.is_visible()
    listing = page.locator(".jp-DirListing-content").inner_text()
    assert "lab" in listing and "notebooks" in listing, "the file browser is not at the project folder"

    time.sleep(3)  # JupyterLab has written the kernel's language_info into the notebook by now
    for opened in (notebook_tab, agent_tab):
        assert "jp-mod-dirty" not in opened.get_attribute("class"), "a file shows as unsaved on opening"
    screenshot(page, "layout")
    assert (ROOT / launch.START_NOTEBOOK).read_bytes() == committed


def test_step_1_runs_in_the_browser_and_shows_its_check(server, page):
    port, token, _ = server
    committed = NOTEBOOK.read_bytes()
    page.goto(alone(port, token, NOTEBOOK.relative_to(ROOT).as_posix()))

    # The notebook opens on the lab's own kernel: no kernel picker, no first-run prompt.
    notebook_tab = tab(page, NOTEBOOK.name)
    notebook_tab.wait_for()
    notebook = page.locator(f"[id='{notebook_tab.get_attribute('data-id')}']")
    notebook.locator(".jp-Cell").first.wait_for()
    page.get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle").wait_for()
    assert page.locator(".jp-Dialog").count() == 0, "a dialog (kernel picker?) opened with the notebook"

    notebook_tab.click()  # the notebook Run All runs is the one in use
    page.click(".lm-MenuBar-item:has-text('Run')")
    page.click(".lm-Menu-item[data-command='runmenu:run-all']")
    page.wait_for_function(ALL_CELLS_RAN, arg=notebook.element_handle())

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
    screenshot(page, "01_extract_code")
    time.sleep(2)
    assert NOTEBOOK.read_bytes() == committed, "the browser saved outputs into the committed notebook"


def test_a_terminal_in_the_lab_runs_spec2code(server, page):
    port, token, home = server
    out = home / "terminal.txt"
    page.goto(launch.lab_url(port, token))
    page.locator(".jp-DirListing-item").first.wait_for()  # the lab has loaded
    page.click(".lm-MenuBar-item:has-text('File')")
    page.hover(".lm-Menu-item:has-text('New')")
    page.click(".lm-Menu-item[data-command='terminal:create-new']")
    terminal = page.locator(".jp-Terminal:not(.lm-mod-hidden)").first
    terminal.wait_for()
    time.sleep(2)  # the shell reads its start-up files
    terminal.click()
    page.keyboard.type(f"(command -v spec2code python; spec2code check 1) 2>&1 | tee {out}\n")
    deadline = time.monotonic() + 60
    while "not started" not in (out.read_text() if out.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.5)
    printed = out.read_text()
    assert "command not found" not in printed, printed
    scripts = Path(sys.prefix) / "bin"
    assert printed.splitlines()[:2] == [str(scripts / "spec2code"), str(scripts / "python")], printed
    assert "Step 1 (extract_code)" in printed and "not started" in printed, printed
    time.sleep(1)
    screenshot(page, "terminal")


def test_the_editor_shows_a_file_reset_on_disk_and_keeps_unsaved_edits(server, page):
    """`spec2code reset` rewrites agent.py while it is open; an editor with no unsaved edits follows it."""
    port, token, _ = server
    folder = ARTIFACTS / "browser-reset"
    shutil.rmtree(folder, ignore_errors=True)
    agent = stubs_file(folder)  # folder/lab/agent.py, in a folder JupyterLab can open (the real one plays no part)
    agent.write_text(agent.read_text().replace(
        'raise NotImplementedError("step 1', 'return reply.strip()  # my step 1\n    raise NotImplementedError("step 1'))
    agent_tab, editor = open_in_editor(page, port, token, agent, showing="my step 1")

    reset = subprocess.run([sys.executable, "-m", "lab.commands", "reset", "--agent", str(agent)],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert reset.returncode == 0 and "Restored the stubs" in reset.stdout, reset
    deadline = time.monotonic() + RELOAD_SECONDS
    while "my step 1" in editor.text_content() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert "my step 1" not in editor.text_content(), "the editor still shows the file as it was before the reset"
    assert 'raise NotImplementedError("step 1' in editor.text_content()
    assert "jp-mod-dirty" not in agent_tab.get_attribute("class")
    screenshot(page, "reset")

    # An editor with unsaved edits is left alone: the student's typing is never thrown away.
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# typed, not saved\n")  # one edit, so no autosave comes halfway through it
    page.wait_for_function("tab => tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())
    agent.write_text(agent.read_text() + "# written on disk\n")
    time.sleep(3 * 2)  # three rounds of the extension's look at the disk
    assert "typed, not saved" in editor.text_content() and "written on disk" not in editor.text_content()


# Every notification JupyterLab shows from now on, in order, however briefly it stays: its text is read at the end.
RECORD_TOASTS = """() => {
    window.toastsShown = [];
    const seen = new WeakSet();
    new MutationObserver(() => {
        for (const toast of document.querySelectorAll('.Toastify__toast')) {
            if (!seen.has(toast)) {
                seen.add(toast);
                window.toastsShown.push(toast);
            }
        }
    }).observe(document.body, {childList: true, subtree: true});
}"""
TOASTS_SHOWN = "() => window.toastsShown.map(toast => toast.textContent)"


def check_notebook(agent):
    """my_checks.ipynb beside agent.py (so the file browser shows it): one cell, step 1's check of that agent.py."""
    checks = agent.with_name("my_checks.ipynb")
    checks.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "check-1", "metadata": {}, "outputs": [],
                   "source": ["from lab.jupyter import check_step\n", "\n", f"check_step(1, {str(agent)!r})"]}],
        "metadata": json.loads(NOTEBOOK.read_text())["metadata"], "nbformat": 4, "nbformat_minor": 5,
    }))
    return checks


def wait_until_held(page, held):
    """Wait until a route handler has held a save of the typing (the extension saves a round or two after it)."""
    deadline = time.monotonic() + RELOAD_SECONDS
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert held, "the typing was not saved a round or two later"


def test_agent_py_is_saved_for_the_student_and_a_check_says_which_text_it_graded(server, page):
    """Run means save: a check grades what the tab shows. Where the file changed on disk too, nothing is saved over
    it: the student is told once per change, and the check says in its own output that it used the disk."""
    port, token, _ = server
    folder = ARTIFACTS / "browser-unsaved"
    shutil.rmtree(folder, ignore_errors=True)
    agent = stubs_file(folder)
    checks = check_notebook(agent)
    agent_tab, editor = open_in_editor(page, port, token, agent, showing="def extract_code(reply)")
    path = agent.relative_to(ROOT).as_posix()
    page.evaluate(RECORD_TOASTS)

    def shown(text):
        return [toast for toast in page.evaluate(TOASTS_SHOWN) if text in toast]

    def wait_for_toast(text, seconds=RELOAD_SECONDS):
        deadline = time.monotonic() + seconds
        while not shown(text) and time.monotonic() < deadline:
            time.sleep(0.25)
        return shown(text)

    # (a) Unsaved typing, then the file changes on disk: one warning, however many times the extension looks.
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# typed, not saved\n")  # one edit: typed key by key, a busy machine may autosave half
    page.wait_for_function("tab => tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())
    agent.write_text(agent.read_text() + "# written on disk\n")
    [announced] = wait_for_toast("changed on disk")
    assert announced.startswith(
        f"{path} changed on disk (by spec2code reset?), but its tab still shows your unsaved edits."), announced
    assert announced.endswith("Show the file on disk"), announced  # one way out, as `spec2code reset` says
    time.sleep(3 * 2)  # three more rounds of the extension's look at the disk
    assert len(shown("changed on disk")) == 1, shown("changed on disk")
    assert "typed, not saved" in editor.text_content() and "written on disk" not in editor.text_content()
    disk_warning = page.locator(".Toastify__toast").filter(has_text="changed on disk")
    assert disk_warning.is_visible(), "the warning closed before the student chose what to do"
    screenshot(page, "unsaved-changed-on-disk")

    # (b) A check cell run then: nothing is saved over the file on disk, and the cell's own output says it used it.
    page.locator(".jp-DirListing-item").filter(has_text="my_checks.ipynb").dblclick()
    checks_tab = tab(page, "my_checks.ipynb")
    checks_tab.wait_for()
    notebook = page.locator(f"[id='{checks_tab.get_attribute('data-id')}']")
    page.get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle").wait_for()
    cell = notebook.locator(".jp-CodeCell").first

    def run_the_check():
        prompt = cell.locator(".jp-InputArea-prompt")
        before = prompt.text_content()
        cell.locator(".cm-content").click()
        page.keyboard.press("Control+Enter")  # run the cell, stay on it
        ran_again = "([prompt, before]) => /\\[\\d+\\]/.test(prompt.textContent) && prompt.textContent !== before"
        page.wait_for_function(ran_again, arg=[prompt.element_handle(), before])
        verdict = notebook.locator(".jp-OutputArea-output .spec2code-check")
        verdict.wait_for(state="visible")
        return cell.locator(".jp-OutputArea").inner_text(), verdict.get_attribute("data-status")

    said, status = run_the_check()
    assert "changed on disk too (by spec2code reset?), so your edits were not saved for you. This cell used the " \
           "file on disk." in said, said
    assert status == "not started" and "# typed, not saved" not in agent.read_text()
    assert shown("unsaved changes") == [], "a toast repeated what the cell says"
    screenshot(page, "unsaved-check-cell")

    # (c) The way out: the tab shows the file on disk, and the unsaved typing is kept in saved/ beside it first.
    disk_warning.get_by_role("button", name="Show the file on disk").click()
    page.wait_for_function("tab => !tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())
    assert "written on disk" in editor.text_content() and "typed, not saved" not in editor.text_content()
    [kept] = agent.parent.glob("saved/agent-unsaved-*.py")
    assert "# typed, not saved" in kept.read_text() and "# typed, not saved" not in agent.read_text()
    [told] = wait_for_toast("Your unsaved edits are kept in")
    assert told.startswith(f"Your unsaved edits are kept in {kept.relative_to(ROOT).as_posix()}."), told
    deadline = time.monotonic() + RELOAD_SECONDS
    while disk_warning.count() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert disk_warning.count() == 0, "the warning stayed after the tab showed the file on disk"

    # (d) Run means save and run: step 1 typed and checked at once is graded as typed, and saved.
    agent_tab.click()
    editor.click()
    page.keyboard.press("Control+Home")
    page.locator(".cm-line").filter(has_text='raise NotImplementedError("step 1').click()
    page.keyboard.press("Home")  # to the line's first word: the raise becomes part of a comment
    page.keyboard.type("return reply  # typed, then checked at once; ")
    page.wait_for_function("tab => tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())
    checks_tab.click()
    said, status = run_the_check()
    assert status == "failed" and "not started" not in said and "unsaved edits" not in said, said
    assert "# typed, then checked at once" in agent.read_text()
    assert "jp-mod-dirty" not in agent_tab.get_attribute("class")
    checks_tab.click()
    page.keyboard.press("Control+s")  # the tab's text rode with the run only: the notebook saved does not hold it
    deadline = time.monotonic() + RELOAD_SECONDS
    while "spec2code-check" not in checks.read_text() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert "spec2code-check" in checks.read_text() and "spec2code_unsaved" not in checks.read_text()
    page.wait_for_function("tab => !tab.classList.contains('jp-mod-dirty')", arg=checks_tab.element_handle())

    # (e) Typing alone is saved a round or two later: closing the tab or the browser then loses nothing.
    agent_tab.click()
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("# typed and left\n")
    deadline = time.monotonic() + RELOAD_SECONDS
    while "# typed and left" not in agent.read_text() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert "# typed and left" in agent.read_text(), "the typing was not saved"
    page.wait_for_function("tab => !tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())
    assert shown("changed on disk") == [announced] and shown("unsaved changes") == []
    screenshot(page, "unsaved-saved")


def test_typing_that_comes_while_a_save_is_on_its_way_is_saved_a_round_later(server, page):
    """JupyterLab marks a file saved when its save returns, even if the student typed while it was on its way. The
    tab must still say that typing is unsaved, and the extension save it: else a check grades the file without it,
    and closing the tab loses it without a question."""
    port, token, _ = server
    folder = ARTIFACTS / "browser-in-flight"
    shutil.rmtree(folder, ignore_errors=True)
    agent = stubs_file(folder)
    agent_tab, editor = open_in_editor(page, port, token, agent, showing="def extract_code(reply)")
    held = []

    def hold_the_first_save(route):
        if route.request.method == "PUT" and not held:
            held.append(route)  # let through below, once more typing has come
        else:
            route.continue_()

    page.route(f"**/api/contents/{agent.relative_to(ROOT).as_posix()}*", hold_the_first_save)
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# before the save\n")
    wait_until_held(page, held)
    page.keyboard.insert_text("# while it was on its way\n")
    held[0].continue_()
    deadline = time.monotonic() + RELOAD_SECONDS
    while "# while it was on its way" not in agent.read_text() and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert "# before the save\n# while it was on its way\n" in agent.read_text(), "the typing in flight was lost"
    page.wait_for_function("tab => !tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())


def test_a_check_run_while_a_save_is_on_its_way_saves_after_it(server, page):
    """A check cell saves agent.py's tab (run means save). Run while the extension's save is still on its way, its
    save waits for that one to return: two at once made JupyterLab ask the student, in a dialog, whether to overwrite
    a file changed on disk, the change being the lab's own first save."""
    port, token, _ = server
    folder = ARTIFACTS / "browser-two-saves"
    shutil.rmtree(folder, ignore_errors=True)
    agent = stubs_file(folder)
    check_notebook(agent)
    agent_tab, editor = open_in_editor(page, port, token, agent, showing="def extract_code(reply)")
    page.locator(".jp-DirListing-item").filter(has_text="my_checks.ipynb").dblclick()
    checks_tab = tab(page, "my_checks.ipynb")
    checks_tab.wait_for()
    page.get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle").wait_for()
    puts, held = [], []

    def hold_the_first_save(route):
        if route.request.method == "PUT":
            puts.append(route.request.post_data or "")
            if not held:
                held.append(route)  # let through below, after the check cell has run
                return
        route.continue_()

    page.route(f"**/api/contents/{agent.relative_to(ROOT).as_posix()}*", hold_the_first_save)
    agent_tab.click()
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# saved by the extension\n")
    wait_until_held(page, held)
    page.keyboard.insert_text("# typed while that save was on its way\n")
    checks_tab.click()
    notebook = page.locator(f"[id='{checks_tab.get_attribute('data-id')}']")
    notebook.locator(".jp-CodeCell .cm-content").first.click()
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(1500)  # time for a second save to start, had the run not waited for the first
    assert len(puts) == 1, "a second save of agent.py started while the first was on its way"
    held[0].continue_()
    deadline = time.monotonic() + RELOAD_SECONDS
    while "# typed while that save was on its way" not in agent.read_text() and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert "# saved by the extension\n# typed while that save was on its way\n" in agent.read_text()
    notebook.locator(".jp-OutputArea-output .spec2code-check").wait_for(state="visible")
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").first.inner_text()
    page.wait_for_function("tab => !tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())


def test_a_reset_half_a_second_after_a_save_is_followed(server, page):
    """A save's reply gives no hash, and by modification time a change within half a second counts as the same file.
    JupyterLab asks for the hash after each save: so a reset right after a save shows, and is not saved over."""
    port, token, _ = server
    folder = ARTIFACTS / "browser-after-save"
    shutil.rmtree(folder, ignore_errors=True)
    agent = stubs_file(folder)
    agent_tab, editor = open_in_editor(page, port, token, agent, showing="def extract_code(reply)")
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# saved with Ctrl+S\n")
    page.keyboard.press("Control+s")
    page.wait_for_function("tab => !tab.classList.contains('jp-mod-dirty')", arg=agent_tab.element_handle())
    assert agent.read_text().endswith("# saved with Ctrl+S\n")
    saved_at = agent.stat().st_mtime_ns
    agent.write_text(agent.read_text().replace("# saved with Ctrl+S\n", "# reset right after\n"))
    os.utime(agent, ns=(saved_at + 1_000_000, saved_at + 1_000_000))  # 1 ms after the save: well within the margin
    deadline = time.monotonic() + RELOAD_SECONDS
    while "reset right after" not in editor.text_content() and time.monotonic() < deadline:
        time.sleep(0.25)
    assert "reset right after" in editor.text_content(), "the tab still shows the file as it was saved"
    assert "saved with Ctrl+S" not in editor.text_content()
    assert "jp-mod-dirty" not in agent_tab.get_attribute("class")


def test_closing_a_notebook_stops_its_kernel(server, page):
    port, token, _ = server
    page.goto(alone(port, token, "notebooks/02_write_tests.ipynb"))
    notebook_tab = tab(page, "02_write_tests.ipynb")
    notebook_tab.wait_for()
    page.get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle").wait_for()

    def kernel_of_notebook():
        sessions = rest(port, token, "/api/sessions")
        return [s["kernel"]["id"] for s in sessions if s["path"].endswith("02_write_tests.ipynb")]

    [kernel] = kernel_of_notebook()
    notebook_tab.locator(".lm-TabBar-tabCloseIcon").click()
    deadline = time.monotonic() + 30
    while kernel in [k["id"] for k in rest(port, token, "/api/kernels")] and time.monotonic() < deadline:
        time.sleep(0.5)
    assert kernel not in [k["id"] for k in rest(port, token, "/api/kernels")], "the kernel outlived its notebook"


def test_a_session_keeps_two_kernels_and_a_notebook_whose_kernel_was_stopped_runs_again(server, page):
    """Working through the steps stops the kernel used least recently; going back to it, the next cell just runs."""
    port, token, _ = server
    first, second, third = "01_extract_code.ipynb", "02_write_tests.ipynb", "03_write_solution.ipynb"

    def kernel_of(name):
        return {s["name"]: s["kernel"]["id"] for s in rest(port, token, "/api/sessions")}.get(name)

    def run_first_code_cell(name, status=f"{launch.KERNEL_DISPLAY_NAME} | Idle"):
        notebook_tab = tab(page, name)
        notebook_tab.click()
        # Wait for the state the student sees: a notebook just opened shows "No Kernel" for a moment while its
        # kernel starts, and a cell run in that moment is dropped by JupyterLab, so only "Idle" will do there.
        page.locator(".jp-StatusBar-Widget").get_by_text(status).first.wait_for()
        cell = page.locator(f"[id='{notebook_tab.get_attribute('data-id')}'] .jp-CodeCell").first
        cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Escape")  # command mode: Shift+Enter runs the cell
        page.keyboard.press("Shift+Enter")
        deadline = time.monotonic() + WAIT_MS / 1000
        while kernel_of(name) is None and time.monotonic() < deadline:
            time.sleep(0.25)
        cell.locator(".jp-OutputArea-output").first.wait_for()
        return cell

    closed = []  # the kernel websockets the page saw close
    page.on("websocket", lambda socket: socket.on("close", lambda gone: closed.append(gone.url)))
    page.goto(alone(port, token, f"notebooks/{first}"))
    run_first_code_cell(first)
    stopped = kernel_of(first)
    for name in (second, third):
        page.locator(".jp-DirListing-item").filter(has_text=name).dblclick()
        tab(page, name).wait_for()
        run_first_code_cell(name)
    running = kernels_once_settled(port, token)  # the cell run in the third notebook stops the first's kernel
    assert stopped not in running and len(running) <= kernels.MOST_KERNELS, running
    # JupyterLab drops a notebook's session once its kernel's websocket has closed; a notebook on screen at that
    # moment shows "Disconnected" rather than "No Kernel" (its next cell starts a kernel all the same).
    deadline = time.monotonic() + 30
    while not any(stopped in url for url in closed) and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    page.wait_for_timeout(2000)

    cell = run_first_code_cell(first, "No Kernel")  # back to step 1, as a student checking something
    assert kernel_of(first) not in (None, stopped), "step 1's notebook did not get a new kernel"
    page.wait_for_function("prompt => prompt.textContent.includes('[1]')",
                           arg=cell.locator(".jp-InputArea-prompt").element_handle())
    assert page.locator(".jp-Dialog").count() == 0, "a dialog (kernel picker, restart?) opened"
    assert len(kernels_once_settled(port, token)) <= kernels.MOST_KERNELS
    screenshot(page, "kernel-started-again")


# Every dialog JupyterLab shows from the moment a page starts loading, however briefly: its text is read at the end.
RECORD_DIALOGS = """(() => {
    window.dialogsShown = [];
    const seen = new WeakSet();
    new MutationObserver(() => {
        for (const dialog of document.querySelectorAll('.jp-Dialog')) {
            if (!seen.has(dialog)) {
                seen.add(dialog);
                window.dialogsShown.push(dialog.textContent);
            }
        }
    }).observe(document.documentElement, {childList: true, subtree: true});
})()"""


def test_a_reload_with_several_notebooks_open_shows_no_dialog_and_the_notebook_on_screen_keeps_its_kernel(
        server, page):
    """A reload asks for a session for every open notebook at once (some of them stopped by the lab meanwhile)."""
    port, token, _ = server
    names = ["01_extract_code.ipynb", "02_write_tests.ipynb", "03_write_solution.ipynb", "04_solve.ipynb",
             "00_start.ipynb"]  # the last one opened is on screen; its first cell is quick to run
    idle = page.locator(".jp-StatusBar-Widget").get_by_text(f"{launch.KERNEL_DISPLAY_NAME} | Idle").first
    page.add_init_script(RECORD_DIALOGS)
    page.goto(alone(port, token, f"notebooks/{names[0]}"))
    tab(page, names[0]).wait_for()
    for name in names[1:]:
        page.locator(".jp-DirListing-item").filter(has_text=name).dblclick()
        tab(page, name).wait_for()
    idle.wait_for()

    def sessions():
        running = {k["id"] for k in rest(port, token, "/api/kernels")}
        return {s["name"]: s["kernel"]["id"] in running for s in rest(port, token, "/api/sessions")}

    for reloads in range(2):
        on_screen = tab(page, names[-1])
        cell = page.locator(f"[id='{on_screen.get_attribute('data-id')}'] .jp-CodeCell").first
        cell.locator(".jp-InputArea-editor").click()
        page.keyboard.press("Escape")
        page.keyboard.press("Shift+Enter")  # the student works here: the lab stops the kernels beyond its two
        cell.locator(".jp-OutputArea-output").first.wait_for()
        running = kernels_once_settled(port, token)
        assert len(running) <= kernels.MOST_KERNELS and len(sessions()) == len(running)  # a reload asks anew

        page.reload()
        tab(page, names[-1]).wait_for()
        assert "lm-mod-current" in tab(page, names[-1]).get_attribute("class")
        idle.wait_for()
        # The sessions of the other notebooks are made meanwhile; an error in one would show as a dialog.
        deadline = time.monotonic() + 30
        while not (sorted(sessions()) == sorted(names) and all(sessions().values())) and time.monotonic() < deadline:
            time.sleep(0.25)
        time.sleep(1)  # a dialog for the last of them has drawn by now
        assert page.evaluate("() => window.dialogsShown") == [], f"reload {reloads + 1} showed a dialog"
        assert idle.is_visible(), "the notebook on screen lost its kernel"
        assert sorted(sessions()) == sorted(names) and all(sessions().values()), sessions()
        for name in names:  # each tab says which step it is first; hovering it shows the file's path
            step, words = name.removesuffix(".ipynb").split("_", 1)
            assert tab(page, name).evaluate(TAB_SHOWS) == f"{int(step)} {words}"
            assert f"notebooks/{name}" in tab(page, name).get_attribute("title")
        screenshot(page, f"reload-{reloads + 1}")
