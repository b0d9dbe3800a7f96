"""`python lab/try_it.py`: each step run on small examples, stopping at the first not started."""

import subprocess
import sys
from pathlib import Path

import pytest

from lab.stubs import render
from tests.paths import REFERENCE_AGENT as REFERENCE
from tests.paths import ROOT


def try_it(agent: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "lab" / "try_it.py"), "--agent", str(agent)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_try_it_stops_at_the_first_step_not_started(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render().replace(
        'raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")',
        "return reply.strip()",
    ))
    done = try_it(path)
    assert done.returncode == 0
    assert "extract_code('  z = 3\\n'): z = 3" in done.stdout
    assert "write_tests is not started yet: that's the next step to write" in done.stdout and "Step 3" not in done.stdout
    assert done.stdout.rstrip().endswith("Hint: replace that raise line with your code.")


@pytest.mark.slow
def test_try_it_runs_every_step_of_the_reference():
    done = try_it(REFERENCE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "solve returned passed: True" in done.stdout
    assert "holdout_check(a solution that forgets the century rule): ['test_" in done.stdout
    assert done.stdout.rstrip().endswith("Every step ran. Grade them with: spec2code check")


@pytest.mark.slow
def test_try_it_shows_an_error_in_the_agent_without_a_traceback(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(render().replace(
        'raise NotImplementedError("step 1 (extract_code) is not started yet: replace this line with your code")',
        "return reply.split('```')[3]",
    ))
    done = try_it(path)
    assert done.returncode == 1
    line = path.read_text().splitlines().index("    return reply.split('```')[3]") + 1
    assert f"extract_code raised IndexError (agent.py line {line}): list index out of range.\nHint: " in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_python_without_the_labs_packages_is_told_which_python_to_use(tmp_path):
    fake = tmp_path / "site"
    (fake / "pytest").mkdir(parents=True)
    (fake / "pytest" / "__init__.py").write_text("raise ImportError('no pytest here')\n")
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "try_it.py")], capture_output=True, text=True,
                          timeout=60, env={"PYTHONPATH": str(fake), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1 and done.stdout == ""
    assert "does not have the lab's packages (pytest is missing)" in done.stderr
    assert ".venv/bin/python lab/try_it.py" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_the_labs_own_errors_are_one_line(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "SPEC2CODE_MODLE": "live"}
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "try_it.py")], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("python lab/try_it.py: Unknown setting SPEC2CODE_MODLE. Did you mean")
    env = {"PATH": "/usr/bin:/bin", "SPEC2CODE_REPLAY": "1", "SPEC2CODE_CACHE_DIR": str(tmp_path / "none")}
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "try_it.py"), "--agent", str(REFERENCE)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert "Model: replay of recorded live replies" in done.stdout
    assert "The model could not answer: Replay mode (SPEC2CODE_REPLAY=1)" in done.stdout and done.returncode == 2


@pytest.mark.slow
def test_a_bad_option_is_one_line_naming_the_help():
    done = subprocess.run([sys.executable, str(ROOT / "lab" / "try_it.py"), "--bogus"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("python lab/try_it.py: unrecognized arguments: --bogus "
                           "(see python lab/try_it.py --help)\n")


@pytest.mark.slow
def test_try_it_names_the_keys_solve_lacks_in_the_checks_words():
    from tests.helpers import contained_corpus

    done = try_it(contained_corpus() / "wrong" / "solve_renames_the_keys.py")
    assert done.returncode == 1 and "solve returned passed" not in done.stdout
    assert ("solve returns a dict without code, tests, iters: it has solution, test_code, passed, iterations, "
            "history.\nHint: return {'code': ..., 'tests': ..., 'passed': ..., 'iters': ..., 'history': ...}.\n"
            "Fix it, then run this again") in done.stdout
