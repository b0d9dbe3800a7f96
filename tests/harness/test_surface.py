"""The harness's public surface is pinned: what a learner may rely on does not change by accident."""

import harness


def test_the_exported_names_are_pinned():
    assert harness.__all__ == [
        "HOLDOUT_TESTS",
        "LabError",
        "ModelError",
        "SPEC",
        "SettingsError",
        "ask",
        "matrix",
        "run",
        "score_tests",
        "tasks",
    ]
    for name in harness.__all__:
        assert hasattr(harness, name), name


def test_the_lab_errors_share_one_base_class():
    assert issubclass(harness.ModelError, harness.LabError)
    assert issubclass(harness.SettingsError, harness.LabError)


def test_the_spec_and_held_out_tests_are_text():
    assert "is_leap_year(year)" in harness.SPEC
    assert "def test_" in harness.HOLDOUT_TESTS
    assert "is_leap_year" not in harness.HOLDOUT_TESTS.split("def test_")[0]  # no solution hidden in it


def test_the_sandbox_server_never_imports_the_harness_package():
    """It is forked into every solution's process: the held-out tests must not be in its memory."""
    import pathlib
    import re

    folder = pathlib.Path(harness.__file__).parent
    for name in ("sandbox/server.py", "sandbox/tests_side.py", "sandbox/solution_side.py", "sandbox/proxy.py",
                 "sandbox/cores.py", "sandbox/wire.py", "sandbox/walls.py", "sandbox/linux.py", "text.py", "levels.py"):
        source = (folder / name).read_text()
        assert not re.search(r"^\s*(from|import)\s+(harness|\.)", source, re.M), name
        assert "tasks" not in re.findall(r"^\s*(?:from|import)\s+(\w+)", source, re.M), name
