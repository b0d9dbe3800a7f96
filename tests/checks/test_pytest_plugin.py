"""checks/pytest_plugin.py: pytest pointed at the checks package collects the step modules, once each, from any
folder, and no other file; and importing the steps without pytest (as the grader does) leaves pytest unimported."""

import re
import subprocess
import sys

import pytest

from checks.pytest_plugin import pytest_collect_file
from checks.define import checks_of
from checks.steps import STEPS
from tests.paths import ROOT


def collected(*args: str, cwd) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=120)
    return re.findall(r"^\S+::\S+$", done.stdout, re.M)


@pytest.mark.slow
def test_the_checks_package_collects_every_steps_checks_from_another_folder(tmp_path):
    found = collected("--pyargs", "checks", cwd=tmp_path)
    files = {test.split("::")[0].rpartition("/")[2] for test in found}
    assert files == {f"{step.module.rpartition('.')[2]}.py" for step in STEPS}
    assert len(found) == sum(len(checks_of(step)) for step in STEPS)


@pytest.mark.slow
def test_a_step_module_named_on_the_command_line_is_collected_once():
    found = collected("checks/step1_extract_code.py", cwd=ROOT)
    assert len(found) == len(set(found)) == len(checks_of(STEPS[0]))


def test_no_other_file_is_collected_by_the_plugin():
    class Session:
        def isinitpath(self, path):
            return False

    parent = type("Parent", (), {"session": Session()})()
    for path in (ROOT / "checks" / "define.py", ROOT / "checks" / "runner" / "link.py",
                 ROOT / "tests" / "checks" / "test_steps.py", ROOT / "tests" / "step1_extract_code.py"):
        assert pytest_collect_file(path, parent) is None, path


def test_importing_every_step_as_the_grader_does_leaves_pytest_unimported():
    # The pytest view is made when pytest collects a step (its pytest_generate_tests hook), not at import: the
    # grader imports every step, and a Gradescope run paid for pytest's import without using it.
    code = ("import importlib, sys, checks.grading; from checks.steps import STEPS; "
            "[importlib.import_module(step.module) for step in STEPS]; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pytest'))")
    done = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); {code}"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
