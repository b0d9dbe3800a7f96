"""The lab's environment variables: one table, read at call time, typos and bad values fail loudly."""

import os
from pathlib import Path

import pytest

from harness import settings
from harness.errors import LabError, SettingsError


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in list(os.environ):
        if name.startswith("SPEC2CODE_") or name.startswith("OPENAI_"):
            monkeypatch.delenv(name)


def test_table_lists_every_variable_with_default_and_meaning():
    rows = settings.table()
    names = [name for name, _, _ in rows]
    assert names == [
        "SPEC2CODE_MODEL",
        "SPEC2CODE_MODEL_NAME",
        "SPEC2CODE_CACHE_DIR",
        "SPEC2CODE_REPLAY",
        "SPEC2CODE_AGENT",
        "SPEC2CODE_STUDENT_DIR",
        "SPEC2CODE_TIMEOUT",
        "SPEC2CODE_ISOLATION",
        "SPEC2CODE_REQUIRE_ISOLATION",
        "SPEC2CODE_SEED",
        "SPEC2CODE_SANDBOX_DEBUG",
        "SPEC2CODE_LIVE_WAIT",
        "SPEC2CODE_TRAIL",
        "SPEC2CODE_AUTOGRADER_ROOT",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
    ]
    for name, default, meaning in rows:
        assert default and meaning and "\n" not in meaning, name
    assert all(name in settings.help_text() for name in names)


def test_defaults():
    assert settings.get("SPEC2CODE_MODEL") == "offline"
    assert settings.get("SPEC2CODE_MODEL_NAME") == "gpt-4o-mini"
    assert settings.get("SPEC2CODE_REPLAY") is False
    assert settings.get("SPEC2CODE_AGENT") == "lab/agent.py"
    assert settings.get("SPEC2CODE_TIMEOUT") == 10.0
    assert settings.get("SPEC2CODE_SANDBOX_DEBUG") == ""
    assert settings.get("OPENAI_API_KEY") is None
    assert settings.get("OPENAI_BASE_URL") is None


def test_default_cache_dir_is_in_the_project_folder():
    project = Path(settings.__file__).resolve().parent.parent
    assert (project / "pyproject.toml").is_file()
    assert settings.get("SPEC2CODE_CACHE_DIR") == project / ".cache" / "spec2code"


def test_values_are_read_at_call_time(monkeypatch, tmp_path):
    monkeypatch.setenv("SPEC2CODE_MODEL", "Live")
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    monkeypatch.setenv("SPEC2CODE_TIMEOUT", "2.5")
    monkeypatch.setenv("SPEC2CODE_CACHE_DIR", str(tmp_path))
    assert settings.get("SPEC2CODE_MODEL") == "live"
    assert settings.get("SPEC2CODE_REPLAY") is True
    assert settings.get("SPEC2CODE_TIMEOUT") == 2.5
    assert settings.get("SPEC2CODE_CACHE_DIR") == tmp_path
    monkeypatch.setenv("SPEC2CODE_REPLAY", "0")
    assert settings.get("SPEC2CODE_REPLAY") is False


def test_an_empty_value_means_the_default(monkeypatch):
    monkeypatch.setenv("SPEC2CODE_MODEL", "")
    assert settings.get("SPEC2CODE_MODEL") == "offline"


def test_a_typo_in_a_name_fails_loudly_and_suggests_the_right_one(monkeypatch):
    monkeypatch.setenv("SPEC2CODE_MODLE", "live")
    with pytest.raises(SettingsError, match="Unknown setting SPEC2CODE_MODLE. Did you mean SPEC2CODE_MODEL?"):
        settings.get("SPEC2CODE_TIMEOUT")  # any read notices it
    with pytest.raises(LabError):
        settings.check()


@pytest.mark.parametrize(
    "name, value, expected",
    [
        ("SPEC2CODE_MODEL", "foo", "SPEC2CODE_MODEL='foo' is not a model the lab knows: use offline | gaming | live."),
        ("SPEC2CODE_MODEL", "ofline", "Did you mean 'offline'?"),
        ("SPEC2CODE_REPLAY", "maybe", "SPEC2CODE_REPLAY='maybe' is not 1 or 0"),
        ("SPEC2CODE_TIMEOUT", "ten", "SPEC2CODE_TIMEOUT='ten' is not a positive number of seconds"),
        ("SPEC2CODE_TIMEOUT", "-1", "is not a positive number"),
        ("SPEC2CODE_TIMEOUT", "nan", "is not a positive number"),
    ],
)
def test_a_bad_value_fails_loudly(monkeypatch, name, value, expected):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as info:
        settings.get(name)
    assert expected in str(info.value)
    assert "\n" not in str(info.value)


def test_asking_for_a_variable_that_is_not_declared_is_a_programming_error():
    with pytest.raises(KeyError, match="SPEC2CODE_COLOUR"):
        settings.get("SPEC2CODE_COLOUR")


def test_check_accepts_an_explicit_environment():
    settings.check({"SPEC2CODE_MODEL": "gaming", "PATH": "/bin"})
    with pytest.raises(SettingsError):
        settings.check({"SPEC2CODE_NOPE": "1"})


def test_isolation_takes_auto_or_process(monkeypatch):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", "process")
    assert settings.get("SPEC2CODE_ISOLATION") == "process"
    monkeypatch.setenv("SPEC2CODE_ISOLATION", "none")
    with pytest.raises(SettingsError, match="SPEC2CODE_ISOLATION"):
        settings.get("SPEC2CODE_ISOLATION")


# --- which agent.py, and how it is shown ------------------------------------------------------------------------


def test_the_agent_defaults_to_the_learners_file():
    assert settings.agent_path(environ={}) == settings.PROJECT_ROOT / "lab" / "agent.py"


def test_a_relative_agent_setting_is_taken_from_the_project_folder_whatever_the_current_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    environ = {"SPEC2CODE_AGENT": "solutions/agent.py"}
    assert settings.agent_path(environ=environ) == settings.REFERENCE_AGENT
    monkeypatch.chdir(settings.PROJECT_ROOT / "notebooks")  # where a notebook's kernel runs
    assert settings.agent_path(environ=environ) == settings.REFERENCE_AGENT


def test_a_path_given_on_the_command_line_is_taken_from_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert settings.agent_path("mine.py", environ={"SPEC2CODE_AGENT": "solutions/agent.py"}) == tmp_path / "mine.py"
    assert settings.agent_path(environ={"SPEC2CODE_AGENT": str(tmp_path / "a.py")}) == tmp_path / "a.py"


def test_paths_are_shown_from_the_project_folder_when_they_are_in_it(tmp_path):
    assert settings.shown(settings.LAB_AGENT) == "lab/agent.py"
    assert settings.shown(tmp_path / "agent.py") == str(tmp_path / "agent.py")


def test_the_readme_lists_every_setting_with_its_default():
    from tests.paths import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, default, _ in settings.table():
        assert f"| `{name}` | " in readme, f"README's settings table has no row for {name}"


def test_the_seed_is_a_whole_number_or_unset(monkeypatch):
    assert settings.get("SPEC2CODE_SEED") is None
    monkeypatch.setenv("SPEC2CODE_SEED", "42")
    assert settings.get("SPEC2CODE_SEED") == 42
    monkeypatch.setenv("SPEC2CODE_SEED", "forty")
    with pytest.raises(SettingsError, match="SPEC2CODE_SEED='forty' is not a whole number"):
        settings.get("SPEC2CODE_SEED")


def test_the_live_wait_and_the_trail(monkeypatch, tmp_path):
    assert settings.get("SPEC2CODE_LIVE_WAIT") == 120.0 and settings.get("SPEC2CODE_TRAIL") is None
    monkeypatch.setenv("SPEC2CODE_LIVE_WAIT", "30")
    monkeypatch.setenv("SPEC2CODE_TRAIL", str(tmp_path / "trail.jsonl"))
    assert settings.get("SPEC2CODE_LIVE_WAIT") == 30.0
    assert settings.get("SPEC2CODE_TRAIL") == tmp_path / "trail.jsonl"
    monkeypatch.setenv("SPEC2CODE_LIVE_WAIT", "-1")
    with pytest.raises(SettingsError, match="SPEC2CODE_LIVE_WAIT='-1' is not a positive number of seconds"):
        settings.get("SPEC2CODE_MODEL")


# --- the student's folder: one install, many students ----------------------------------------------------------


def test_the_students_folder_is_the_project_folder_unless_given():
    assert settings.STUDENT_ROOT == settings.PROJECT_ROOT
    assert settings.student_root(environ={}) == settings.PROJECT_ROOT
    assert settings.student_root(environ={"SPEC2CODE_STUDENT_DIR": "~/spec2code-lab"}) == (
        Path.home() / "spec2code-lab").resolve()


def test_a_relative_students_folder_is_refused_and_not_used():
    assert settings.student_root(environ={"SPEC2CODE_STUDENT_DIR": "spec2code-lab"}) == settings.PROJECT_ROOT
    with pytest.raises(SettingsError, match="SPEC2CODE_STUDENT_DIR='spec2code-lab' is not a whole path"):
        settings.check({"SPEC2CODE_STUDENT_DIR": "spec2code-lab"})


def test_given_a_students_folder_the_lab_finds_their_files_there_and_the_install_where_it_is(tmp_path):
    import subprocess
    import sys

    script = ("from harness import settings as s; print(s.LAB_AGENT); print(s.default_cache_dir()); "
              "print(s.agent_path()); print(s.shown(s.LAB_AGENT)); print(s.shown(s.REFERENCE_AGENT))")
    environ = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "SPEC2CODE_STUDENT_DIR": "~/lab-files",
               "SPEC2CODE_AGENT": "lab/mine.py"}
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=environ, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    mine = tmp_path.resolve() / "lab-files"
    assert out == [str(mine / "lab" / "agent.py"), str(mine / ".cache" / "spec2code"), str(mine / "lab" / "mine.py"),
                   "lab/agent.py", "solutions/agent.py"]
