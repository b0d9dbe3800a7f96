"""harness/exports.py: a package's exports come from their modules when first asked for, and a wrong name is an
AttributeError, as with any module."""

import subprocess
import sys

import pytest

import harness
from harness.settings import PROJECT_ROOT


def test_importing_the_harness_loads_no_model_task_or_sandbox_until_asked():
    probe = ("import sys, harness; before = sorted(m for m in sys.modules if m.startswith('harness.')); "
             "harness.SPEC; print(before, 'harness.tasks' in sys.modules, 'harness.model' in sys.modules)")
    command = f"import sys; sys.path.insert(0, {str(PROJECT_ROOT)!r}); {probe}"
    done = subprocess.run([sys.executable, "-I", "-c", command], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['harness.errors',", "'harness.exports']", "True", "False"]


def test_an_export_is_the_one_its_module_defines_and_is_kept():
    from harness.tasks import SPEC

    assert harness.SPEC is SPEC and "SPEC" in vars(harness)
    assert harness.sandbox.run is harness.run and "run" in dir(harness.sandbox)


def test_a_module_of_the_package_is_reached_by_name_and_a_wrong_name_is_an_attribute_error():
    assert harness.levels.NAMES
    with pytest.raises(AttributeError, match="module 'harness' has no attribute 'no_such_thing'"):
        harness.no_such_thing
    assert not hasattr(harness.sandbox, "no_such_module")
