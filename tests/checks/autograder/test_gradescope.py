"""checks/autograder: the Gradescope zip, built by the lab, installed and run as Gradescope does it, in a fake root.

The slow tests install the zip in a fake Gradescope image (tests/gradescope_image.py: a fake /autograder, setup.sh
run in a fresh virtual environment with no network), then run run_autograder for each kind of submission, and check
every results.json against Gradescope's specification.
"""

import io
import json
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from checks.autograder import gradescope, wheel
from checks.grading import grade_submission
from checks.submissions import Submission
from tests import gradescope_image
from tests.checks.report import gradescope_spec
from tests.gradescope_image import build_zip
from lab.stubs import render as shipped_stubs
from tests.harness.sandbox import identities
from tests.helpers import self_contained
from tests.paths import AGENTS, REFERENCE_AGENT, ROOT
from tests.shipped import stubs_file

NOT_FOR_GRADING = ("matplotlib", "nbformat", "nbclient", "jupyterlab", "ipykernel", "IPython", "openai")
HANG_AT_IMPORT = "while True:\n    pass\n"


def test_the_zip_has_the_scripts_at_its_root_and_the_lab_as_a_grading_only_wheel(tmp_path, capsys):
    out = build_zip(tmp_path, "--points", "1,1,1,2,2", "--partial", "--step-visibility", "visible,visible,visible,"
                    "after_due_date,hidden")
    said = capsys.readouterr().out
    assert "Programming Assignment worth 7 points" in said and "Update Autograder" in said
    assert ("Students do not see steps 4 and 5 until released, nor their total: hidden points also hide the total "
            "(Gradescope shows no total while a test is hidden), and the summary they see leaves steps 4 and 5 out."
            in said.splitlines())
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        assert names == ["setup.sh", "run_autograder", wheel.filename()]
        for name in ("setup.sh", "run_autograder"):
            mode = archive.getinfo(name).external_attr >> 16
            assert stat.S_ISREG(mode) and mode & 0o111, name
        run = archive.read("run_autograder").decode()
        inner = zipfile.ZipFile(archive.open(wheel.filename()))
    assert "--points 1,1,1,2,2 --visibility visible --step-visibility visible,visible,visible,after_due_date,hidden" \
           " --partial" in run
    files = inner.namelist()
    assert {f.split("/")[0] for f in files} == {"harness", "checks", "lab", "spec2code_lab-0.1.0.dist-info"}
    assert "checks/runner/child.py" in files and "lab/commands/__init__.py" in files
    assert not any(f.startswith("lab/jupyter") for f in files)  # the notebooks' side: grading never imports it
    assert not any("__pycache__" in f or f.startswith("solutions") for f in files)  # no reference on the server
    meta = inner.read("spec2code_lab-0.1.0.dist-info/METADATA").decode()
    assert [line for line in meta.splitlines() if line.startswith("Requires-Dist")] == ["Requires-Dist: pytest>=8"]
    assert gradescope.build() == gradescope.build()  # the same lab makes the same zip


@pytest.mark.slow
def test_grading_imports_nothing_the_grading_only_install_leaves_out():
    code = (f"import sys\nfor name in {NOT_FOR_GRADING!r}:\n    sys.modules[name] = None  # importing it fails\n"
            "from lab.commands import main\n"
            f"sys.exit(main(['grade', {str(REFERENCE_AGENT)!r}, '--format', 'json']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["score"] == 5


# --- the zip installed and run as Gradescope does ------------------------------------------------------------


@pytest.fixture(scope="module")
def fake_root():
    """The zip unpacked into a fake /autograder, setup.sh run in a fresh environment: (root, environment vars).

    Readable by every user, as Gradescope's image is: the grader's children run as users of their own."""
    base = Path(identities.shared_folder("spec2code-gradescope-"))  # never in a private TMPDIR
    base.chmod(0o755)
    root, env, image = gradescope_image.install(base)
    yield root, env, image
    shutil.rmtree(base, ignore_errors=True)


def run_autograder(root: Path, env: dict, files: dict, script: str = "run_autograder", wrap=lambda argv: argv) -> dict:
    """Hand in `files` (name -> text) and run the autograder (its command line passed through `wrap`); return
    results.json, checked against the spec."""
    shutil.rmtree(root / "submission")
    (root / "submission").mkdir()
    for name, text in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_text(text, encoding="utf-8")
    temporary = Path(tempfile.mkdtemp(prefix="tmp-", dir=root.parent))  # a temporary folder of this run's own
    temporary.chmod(0o1777)  # shared by all, as /tmp is
    done = subprocess.run(wrap([str(root / script)]), cwd=root, env={**env, "TMPDIR": str(temporary)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert list(temporary.iterdir()) == [], "run_autograder left files in the temporary folder"
    temporary.rmdir()
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    gradescope_spec.validate(results)
    return results


@pytest.mark.slow
def test_setup_installs_only_what_grading_needs(fake_root):
    _, _, image = fake_root
    python = image / "bin" / "python"
    for name in NOT_FOR_GRADING:
        found = subprocess.run([str(python), "-c", f"import {name}"], capture_output=True, timeout=60)
        assert found.returncode != 0, f"{name} was installed"
    installed = subprocess.run([str(python), "-m", "pip", "list", "--format", "json"], capture_output=True,
                               text=True, timeout=60)
    names = {d["name"].lower() for d in json.loads(installed.stdout)}
    assert "spec2code-lab" in names and "pytest" in names and "jupyterlab" not in names


@pytest.mark.slow
def test_the_reference_scores_full_marks_as_it_does_with_the_full_install(fake_root):
    root, env, _ = fake_root
    results = run_autograder(root, env, {"Agent.py": REFERENCE_AGENT.read_text()})  # as a Windows user names it
    assert results["score"] == 5 and [t["status"] for t in results["tests"]] == ["passed"] * 5
    assert results["output_format"] == "text" and results["extra_data"]["isolation"] in ("namespaces", "user", "process")
    assert f"Isolation: {results['extra_data']['isolation']}" in results["output"]
    here = grade_submission(Submission("submission", REFERENCE_AGENT))
    assert [t["extra_data"]["checks"] for t in results["tests"]] == [r["checks"] for r in here["steps"]]


@pytest.mark.slow
def test_the_stubs_score_0_and_say_not_started(fake_root, tmp_path):
    root, env, _ = fake_root
    results = run_autograder(root, env, {"spec2code-lab/lab/agent.py": shipped_stubs(),
                                         "spec2code-lab/solutions/agent.py": REFERENCE_AGENT.read_text()})
    assert results["score"] == 0
    assert all(t["output"].startswith("not started: ") for t in results["tests"])
    here = grade_submission(Submission("submission", stubs_file(tmp_path)))
    assert [t["extra_data"]["checks"] for t in results["tests"]] == [r["checks"] for r in here["steps"]]


@pytest.mark.slow
def test_a_syntax_error_an_empty_submission_and_a_hang_each_score_0_with_the_reason(fake_root):
    root, env, _ = fake_root
    broken = run_autograder(root, env, {"agent.py": "def extract_code(reply:\n    return reply\n"})
    assert broken["score"] == 0 and "agent.py has a syntax error on line 1" in broken["output"]
    empty = run_autograder(root, env, {})
    assert empty["score"] == 0 and "no agent.py found: the submission is empty" in empty["output"]
    stubs = shipped_stubs()
    hangs = run_autograder(root, env, {"agent (1).py": stubs.replace(
        'raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")',
        "while True:\n        pass", 1)})
    assert hangs["score"] == 0 and "ran for more than 3 s and was stopped" in hangs["tests"][0]["output"]


@pytest.mark.slow
def test_results_json_is_written_even_when_grading_runs_out_of_time_or_crashes(fake_root, tmp_path):
    root, env, _ = fake_root
    with zipfile.ZipFile(build_zip(tmp_path, "--time-limit", "3")) as archive:
        (root / "run_autograder_3s").write_bytes(archive.read("run_autograder"))
    (root / "run_autograder_3s").chmod(0o755)
    stuck = run_autograder(root, env, {"agent.py": HANG_AT_IMPORT}, script="run_autograder_3s")
    assert stuck["score"] == 0 and stuck["output"].startswith("Grading stopped after 3 s without a result.")
    assert [t["max_score"] for t in stuck["tests"]] == [1] * 5 and stuck["output_format"] == "text"
    no_lab = dict(env, PATH="/usr/bin:/bin")  # a Python without the lab: the grader cannot even start
    crashed = run_autograder(root, no_lab, {"agent.py": REFERENCE_AGENT.read_text()})
    assert crashed["score"] == 0 and "could not finish grading this submission" in crashed["output"]
    assert "No module named" in crashed["output"]


def test_setup_stops_on_an_image_older_than_ubuntu_22_04_and_names_the_setting(tmp_path, capsys):
    """Gradescope's base images (its Base Images page): Ubuntu 22.04 is the default, and an assignment may keep an
    older one, whose python3 is older than the lab's 3.10 (20.04 has 3.8). setup.sh stops before installing, saying
    which setting to change; the build says the same."""
    old = tmp_path / "bin"
    old.mkdir()
    (old / "python3").write_text('#!/bin/sh\n[ "$1" = "-V" ] && { echo "Python 3.8.10"; exit 0; }\nexit 1\n')
    (old / "python3").chmod(0o755)
    with zipfile.ZipFile(build_zip(tmp_path)) as archive:
        archive.extractall(tmp_path / "autograder" / "source")
    said = capsys.readouterr().out
    assert "set the Base\nImage to Ubuntu 22.04 or later" in said
    done = subprocess.run(["bash", str(tmp_path / "autograder" / "source" / "setup.sh")], capture_output=True,
                          text=True, timeout=60, env={"PATH": f"{old}:/usr/bin:/bin", "SPEC2CODE_AUTOGRADER_ROOT":
                                                      str(tmp_path / "autograder")})
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("spec2code: the lab needs Python 3.10 or newer, and this image has Python 3.8.10. On the "
                           "assignment's Configure Autograder page, set the Base Image to Ubuntu 22.04 (or later), "
                           "then press Update Autograder.\n")


def test_a_machine_where_no_submission_can_run_writes_no_score_so_gradescope_shows_the_autograder_failed(tmp_path):
    """Gradescope's troubleshooting page: without a valid results.json, the submission shows "The autograder
    failed to execute correctly", with no score, and the instructor reads run_autograder's output. That is how an
    environment failure (`spec2code grade` exits 3: no agent's process can start) is the autograder's error, said
    as such, and not a zero in every student's name; once the image is fixed, a regrade scores them."""
    grader = tmp_path / "bin"
    grader.mkdir()
    (grader / "python3").write_text('#!/bin/sh\necho "spec2code grade: the agent\'s process cannot start here" >&2'
                                    "\nexit 3\n")
    (grader / "python3").chmod(0o755)
    root = tmp_path / "autograder"
    (root / "results").mkdir(parents=True)
    (root / "results" / "results.json").write_text("{}")  # a result from an earlier run is not left standing
    with zipfile.ZipFile(io.BytesIO(gradescope.build())) as archive:
        (root / "run_autograder").write_bytes(archive.read("run_autograder"))
    done = subprocess.run(["bash", str(root / "run_autograder")], capture_output=True, text=True, timeout=60,
                          env={"PATH": f"{grader}:/usr/bin:/bin", "SPEC2CODE_AUTOGRADER_ROOT": str(root)})
    assert done.returncode == 1 and not (root / "results" / "results.json").exists()
    assert done.stdout == ("spec2code: the autograder failed, not this submission: no score was written. "
                           "spec2code grade: the agent's process cannot start here\n")


def test_both_scripts_default_to_slash_autograder_and_honour_the_setting():
    with zipfile.ZipFile(io.BytesIO(gradescope.build())) as archive:
        for name in ("setup.sh", "run_autograder"):
            script = archive.read(name).decode()
            assert 'ROOT="${SPEC2CODE_AUTOGRADER_ROOT:-/autograder}"' in script


@pytest.mark.machine  # its attackers write in the machine's /tmp at the user level: the hostile corpus would see it
@pytest.mark.slow
@pytest.mark.skipif(identities.need_root() is not None or identities.runtime() is None,
                    reason=str(identities.need_root() or "no Python every user may run"))
def test_under_dockers_default_walls_forgers_and_attackers_earn_nothing_for_it(fake_root, tmp_path):
    """Gradescope runs the autograder as root without CAP_SYS_ADMIN: no namespaces, so the grader's children get
    the `user` level (a user of their own each). A forger that looks its answers up, one that patches pytest and one
    that kills every process it can reach earn what their honest work earns, and the reference still earns 5."""
    root, env, _ = fake_root
    docker = identities.as_docker_default
    reference = run_autograder(root, env, {"agent.py": REFERENCE_AGENT.read_text()}, wrap=docker)
    assert reference["score"] == 5 and reference["extra_data"]["isolation"] == "user", reference["output"]
    for name, earns in (("forging/lookup_tables", 0), ("forging/patches_pytest", 0), ("attacking/kill_everyone", 5),
                        ("attacking/rewrites_results", 5)):
        agent = self_contained(AGENTS / f"{name}.py", tmp_path / name.replace("/", "-"))
        results = run_autograder(root, env, {"agent.py": agent.read_text()}, wrap=docker)
        assert results["score"] == earns, (name, results["output"])
        assert results["extra_data"]["isolation"] == "user"
        time.sleep(1)  # time for a daemon that outlived its grading to rewrite the file
        assert json.loads((root / "results" / "results.json").read_text()) == results, name
    again = run_autograder(root, env, {"agent.py": REFERENCE_AGENT.read_text()}, wrap=docker)
    assert again["score"] == 5  # nothing an attacker did outlived its own grading
