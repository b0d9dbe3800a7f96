"""The class on a real JupyterHub, set up as docs/jupyterhub/config.yaml says: one install, three students.

A hub (the `jupyterhub` package, configurable-http-proxy from npm, the local process spawner, a password, on
127.0.0.1 only) serves three Linux users made for the test, each with a private home. Each student logs in, opens
the nbgitpuller link, which pulls the repository of student files (`spec2code lab --student-files`) into their
home, runs a check cell in a kernel through the hub's proxy, edits lab/agent.py as JupyterLab saves it, has the
server stopped as the idle culler stops it, opens the link again (the lab's update arrives, the edit stays), runs
the check on the edited file, and tries to read a classmate's agent.py. The PSS of each student's processes is
measured while their kernel is up.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import shutil
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from lab.jupyter.install import workspace_file
from tests.lab.jupyter import hub_driver as driver
from tests.paths import ROOT

CONFIG = ROOT / "docs" / "jupyterhub" / "config.yaml"
STUDENTS = ("s2c-hub-ada", "s2c-hub-bo", "s2c-hub-cy")
IN_A_POD = STUDENTS[-1]  # runs as zero-to-jupyterhub's pods do: no privilege escalation, no user namespaces
SOLVED_STEP_1 = '''

def extract_code(reply):
    """Solved on the hub: the first fenced block, else the whole reply."""
    if "```" not in reply:
        return reply.strip()
    block = reply.split("```")[1]
    return block[len("python"):].lstrip("\\n") if block.startswith("python") else block.strip("\\n")
'''
CHECK_CELL = "from lab.jupyter import check_step\ncheck_step(1)"


def why_not() -> str | None:
    """None when a real hub can run here, else why not (the reason the test is skipped)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return "needs root on Linux, to make the three students' users"
    for tool in ("useradd", "git"):
        if not shutil.which(tool):
            return f"needs {tool}"
    for module in ("jupyterhub", "nbgitpuller", "yaml"):
        try:
            __import__(module)
        except ImportError:
            return f"needs the {module} package: pip install -e '.[dev]'"
    if driver.proxy_command() is None:
        return "needs configurable-http-proxy, or npm to install it (Debian: apt install nodejs npm)"
    return None


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    why = why_not()
    if why:
        pytest.skip(why)
    import yaml

    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    install = driver.shared_install()
    if install is None:
        pytest.skip("no Python of this version that every user can run, with this one's packages readable by all")
    with driver.students(STUDENTS) as homes, \
            driver.student_repository(driver.shared_folder("spec2code-hub-repo-")) as (repo, url), \
            driver.Hub(tmp_path_factory.mktemp("hub"), config, STUDENTS, install, in_a_pod=[IN_A_POD]) as running:
        running.homes, running.repo, running.repo_url = homes, repo, url
        yield running


def test_the_readme_gives_the_configs_link_and_the_same_settings_for_tljh():
    import yaml

    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Running on JupyterHub"):readme.index("## For instructors")]
    single = config["singleuser"]
    assert f"    {config['custom']['spec2codeLink']}\n" in section
    assert f'c.Spawner.environment = {dict(single["extraEnv"])!r}'.replace("'", '"') in section
    assert f'c.Spawner.default_url = "{single["defaultUrl"]}"' in section
    assert f"limits.memory {single['memory']['limit']}" in section
    assert f"services.cull.timeout {config['cull']['timeout']}" in section


@pytest.mark.slow
def test_three_students_work_on_one_install_each_in_their_own_home(hub):
    link = hub.config["custom"]["spec2codeLink"]
    folder = hub.config["singleuser"]["extraEnv"]["SPEC2CODE_STUDENT_DIR"]
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["targetpath"] == [Path(folder).name]
    assert hub.config["singleuser"]["defaultUrl"].startswith(f"/lab/tree/{Path(folder).name}/")

    def day(index: int) -> dict:
        name, other = STUDENTS[index], STUDENTS[(index + 1) % len(STUDENTS)]
        return student_day(hub, name, hub.homes[other] / Path(folder).name / "lab" / "agent.py", link)

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(len(STUDENTS)) as pool:
        seen = dict(zip(STUDENTS, pool.map(day, range(len(STUDENTS)))))
    print(f"\nthree students' days on one hub: {time.monotonic() - started:.1f} s")
    for name, what in seen.items():
        print(f"{name}: {json.dumps(what, indent=1)}")

    guarantee = driver.megabytes(hub.config["singleuser"]["memory"]["guarantee"])
    for name, what in seen.items():
        assert "not started" in what["check"], (name, what["check"])
        assert "Solved on the hub" in what["after the restart"], (name, what["after the restart"])
        assert "passed" in what["check after the restart"], (name, what["check after the restart"])
        if name == IN_A_POD:  # the walls a pod allows, said in the result
            assert "isolation: process" in what["check after the restart"], what["check after the restart"]
        assert what["the lab's update"] == "arrived", name
        assert "Permission denied" in what["a classmate's agent.py"], (name, what["a classmate's agent.py"])
        # 403 from their server, or 404 from the hub while it is stopped: never their file
        assert what["a classmate's server"] in (403, 404), (name, what["a classmate's server"])
        assert 0 < what["PSS MB"] < guarantee, (name, what["PSS MB"])
        mine, pulled = hub.homes[name] / Path(folder).name, hub.repo
        assert visible(mine) == visible(pulled) == ["NEWS.md", "lab", "notebooks"], "not only the student's files"
        assert visible(mine / "lab") == ["agent.py", "try_it.py"]  # the install (harness/, solutions/) stays out
        layout = hub.homes[name] / ".jupyter" / "lab" / "workspaces" / workspace_file("default")
        assert json.loads(layout.read_text())["data"]["editor:spec2code-lab/lab/agent.py"], "not the lab's layout"
        size = sum(p.stat().st_size for p in mine.rglob("*") if p.is_file() and ".git" not in p.parts)
        print(f"{name}: {visible(hub.homes[name], hidden=True)} in the home; {size / 1e3:.0f} kB of student files")
        assert size < 500_000


def visible(folder: Path, hidden: bool = False) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if hidden or not p.name.startswith("."))


def student_day(hub, name: str, classmates_agent: Path, link: str) -> dict:
    """One student's session, as a browser and the culler would drive it; what they saw, for the report."""
    clock = [time.monotonic()]

    def took(what: str) -> None:  # seconds of wall time per stage, for the report
        clock.append(time.monotonic())
        seen.setdefault("seconds", {})[what] = round(clock[-1] - clock[-2], 1)

    seen: dict = {}
    browser = hub.browser(name)
    browser.pull(link, hub.repo_url)
    took("log in, start, pull")
    seen["check"] = browser.run_cell(CHECK_CELL)
    took("kernel, check")
    agent = browser.read(f"{hub.folder}/lab/agent.py")
    browser.save(f"{hub.folder}/lab/agent.py", agent.split("\n\ndef extract_code")[0] + SOLVED_STEP_1
                 + "\n\ndef write_tests" + agent.split("\n\ndef write_tests", 1)[1])
    took("edit")
    hub.cull(name)
    took("culled")
    driver.update_once(hub.repo)  # the instructor pushes a change while the server is down
    browser.pull(link, hub.repo_url)
    took("start, pull again")
    after = browser.read(f"{hub.folder}/lab/agent.py")
    seen["after the restart"] = next(line.strip() for line in after.splitlines() if "Solved on the hub" in line) \
        if "Solved on the hub" in after else "the edit is gone"
    seen["the lab's update"] = "arrived" if browser.exists(f"{hub.folder}/{driver.UPDATE}") else "missing"
    seen["check after the restart"] = browser.run_cell(CHECK_CELL)
    took("kernel, check again")
    seen["a classmate's agent.py"] = browser.run_cell(f"open({str(classmates_agent)!r}).read()")
    classmate = classmates_agent.parents[2].name  # their user name: their home's
    seen["a classmate's server"] = browser.session.get(
        f"{hub.url}/user/{classmate}/api/contents/{hub.folder}/lab/agent.py", timeout=30).status_code
    seen["PSS MB"] = round(driver.pss_of_user(name) / 2**20, 1)
    browser.close()
    return seen
