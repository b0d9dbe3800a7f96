"""The house: imports run lab -> checks -> harness, checked by import-linter's contracts in pyproject.toml."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT

LINT = Path(sys.executable).with_name("lint-imports")


def lint(folder: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(folder))
    return subprocess.run([str(LINT), "--no-cache"], cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_every_import_runs_one_way():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_an_import_that_runs_upward_is_caught(tmp_path):
    for name in ("harness", "checks", "lab", "solutions", "pyproject.toml"):
        source = ROOT / name
        copy = shutil.copytree if source.is_dir() else shutil.copy
        copy(source, tmp_path / name)
    errors = tmp_path / "harness" / "errors.py"
    errors.write_text(errors.read_text() + "\nfrom checks import steps  # upward: harness must not know checks\n")
    done = lint(tmp_path)
    assert done.returncode == 1, done.stdout
    assert "lab and solutions -> checks -> harness BROKEN" in done.stdout
    assert "harness.errors -> checks.steps" in done.stdout
