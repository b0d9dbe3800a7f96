"""What `spec2code lab --setup-only` installs: each piece once, each setting real, the extension's build current."""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from lab.jupyter import install
from tests.paths import ROOT


def test_setup_installs_each_piece_once_and_keeps_what_others_set(tmp_path):
    prefix, state = tmp_path / "env", tmp_path / "state"
    settings = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}))

    first = install.setup(prefix, state)
    assert [line.split(" (")[0] for line in first] == [
        "kernel 'spec2code-lab' registered", "JupyterLab settings installed", "JupyterLab server settings installed",
        "reload extension installed",
        "JupyterLab layout installed: the start notebook, lab/agent.py beside it",
    ]
    assert all("already" in line for line in install.setup(prefix, state)), "a second setup changed something"

    spec = json.loads((prefix / "share" / "jupyter" / "kernels" / "spec2code-lab" / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable and spec["display_name"] == install.KERNEL_DISPLAY_NAME
    assert install.KERNEL_EXTENSION in spec["argv"]  # the lab's errors read as messages in its notebooks
    merged = json.loads(settings.read_text())
    assert merged["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}  # someone else's: kept
    assert merged["@jupyterlab/docmanager-extension:plugin"] == {"autosave": False}

    server = json.loads((prefix / "etc" / "jupyter" / "jupyter_server_config.json").read_text())
    assert server["MappingKernelManager"] == install.SERVER_CONFIG["MappingKernelManager"]
    assert server["LabApp"]["workspaces_dir"] == str(state / "workspaces")
    assert server["ServerApp"]["terminado_settings"]["shell_command"] == install.terminal_command(prefix)
    assert server["ServerApp"]["kernel_manager_class"] == "lab.jupyter.kernels.RecentKernels"

    built = install.LABEXTENSION_BUILT
    installed = prefix / "share" / "jupyter" / "labextensions" / install.labextension_name()
    assert install.same_tree(built, installed)
    assert (installed / json.loads((built / "package.json").read_text())["jupyterlab"]["_build"]["load"]).is_file()


def test_registering_the_kernel_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    """ipykernel stages a kernelspec in a folder of the temporary folder, and left that folder there, empty."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    assert install.register_kernel(tmp_path / "env").startswith("kernel 'spec2code-lab' registered")
    assert list(scratch.iterdir()) == [] and tempfile.gettempdir() == str(scratch)


def test_a_students_own_layout_and_a_changed_extension_are_handled(tmp_path):
    prefix, state = tmp_path / "env", tmp_path / "state"
    install.setup(prefix, state)
    [layout] = (state / "workspaces").iterdir()
    layout.write_text('{"data": {}, "metadata": {"id": "default"}}')
    installed = prefix / "share" / "jupyter" / "labextensions" / install.labextension_name()
    (installed / "static" / "stale.js").write_text("// from an older build")

    again = install.setup(prefix, state)
    assert again[-1].startswith("JupyterLab layout already in place")
    assert layout.read_text() == '{"data": {}, "metadata": {"id": "default"}}', "the student's layout was replaced"
    assert again[3].startswith("reload extension installed")
    assert install.same_tree(install.LABEXTENSION_BUILT, installed)


def test_every_overridden_setting_exists_in_jupyterlab():
    """A misspelt plugin or setting name in overrides.json would be ignored silently."""
    schemas = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas"
    for plugin, values in json.loads(install.OVERRIDES.read_text()).items():
        package, name = plugin.rsplit(":", 1)
        schema = json.loads((schemas / package / f"{name}.json").read_text())
        assert set(values) <= set(schema["properties"]), plugin


def test_notebooks_are_never_saved_behind_the_students_back_and_closing_one_stops_its_kernel():
    overrides = json.loads(install.OVERRIDES.read_text())
    assert overrides["@jupyterlab/docmanager-extension:plugin"]["autosave"] is False
    assert overrides["@jupyterlab/notebook-extension:tracker"]["kernelShutdown"] is True
    assert overrides["@jupyterlab/terminal-extension:plugin"]["shutdownOnClose"] is True


@pytest.mark.slow
def test_every_server_setting_is_one_the_server_has():
    """A misspelt class or trait name in the server's config is ignored with only a warning in its log."""
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.contents.manager import ContentsManager
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from jupyterlab.labapp import LabApp

    classes = {c.__name__: c for c in (ServerApp, ContentsManager, MappingKernelManager, LabApp)}
    prefix = Path(sys.prefix)
    written = install.SERVER_CONFIG | {"LabApp": {"workspaces_dir": ""},
                                       "ServerApp": install.SERVER_CONFIG["ServerApp"] | {"terminado_settings": {}}}
    for section, values in written.items():
        traits = classes[section].class_traits(config=True)
        assert set(values) <= set(traits), section
    assert install.terminal_command(prefix)[0].endswith(("bash", "sh"))


def test_idle_kernels_are_stopped_but_never_a_busy_one():
    culling = install.SERVER_CONFIG["MappingKernelManager"]
    assert 0 < culling["cull_idle_timeout"] <= 1800 and culling["cull_connected"] and not culling["cull_busy"]


def test_the_labs_kernel_manager_is_the_servers_own_but_for_the_limit():
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # the server's default
    from jupyter_server.utils import import_item

    assert issubclass(import_item(install.SERVER_CONFIG["ServerApp"]["kernel_manager_class"]), AsyncMappingKernelManager)


def test_a_terminal_in_the_lab_runs_the_labs_spec2code_and_python(tmp_path):
    """Even where the login files set PATH afresh and ~/.bashrc puts another Python first."""
    prefix = Path(sys.prefix)
    install.install_terminal_rc(prefix)
    (tmp_path / ".bashrc").write_text('export PATH="/usr/local/bin:/usr/bin:/bin"\n')
    done = subprocess.run(
        install.terminal_command(prefix), input="command -v spec2code python\nexit\n", capture_output=True,
        text=True, timeout=60, cwd=tmp_path, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
    )
    found = done.stdout.split()
    assert found[:2] == [str(prefix / "bin" / "spec2code"), str(prefix / "bin" / "python")], done


def test_the_layout_opens_the_start_notebook_with_agent_py_to_its_right():
    workspace = json.loads(install.WORKSPACE.read_text())
    dock = workspace["data"]["layout-restorer:data"]["main"]["dock"]
    assert dock["type"] == "split-area" and dock["orientation"] == "horizontal"
    assert [area["widgets"] for area in dock["children"]] == [
        ["notebook:notebooks/00_start.ipynb"], ["editor:lab/agent.py"],
    ]
    for widget in ("notebook:notebooks/00_start.ipynb", "editor:lab/agent.py"):
        assert (ROOT / workspace["data"][widget]["data"]["path"]).is_file(), widget
    assert workspace["data"]["file-browser-filebrowser:cwd"] == {"path": ""}  # lab/ and notebooks/ in view


def test_the_committed_extension_build_is_made_from_the_committed_source():
    """Change the extension's source (or its locked packages) and this fails until `make labextension` is run."""
    recorded = install.SOURCE_HASH.read_text().strip()
    assert recorded == install.labextension_source_hash(), (
        "lab/jupyter/labextension changed since its build: run `make labextension` and commit the build"
    )
    source = json.loads((install.LABEXTENSION / "package.json").read_text())
    built = json.loads((install.LABEXTENSION_BUILT / "package.json").read_text())
    assert (built["name"], built["version"]) == (source["name"], source["version"])
    assert (install.LABEXTENSION_BUILT / built["jupyterlab"]["_build"]["load"]).is_file()


def test_the_source_hash_sees_a_change(tmp_path, monkeypatch):
    copy = tmp_path / "labextension"
    for name in install.LABEXTENSION_SOURCES:
        source = install.LABEXTENSION / name
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, copy / name)
        else:
            (copy / name).write_bytes(source.read_bytes())
    monkeypatch.setattr(install, "LABEXTENSION", copy)
    assert install.labextension_source_hash() == install.SOURCE_HASH.read_text().strip()
    index = copy / "src" / "index.ts"
    index.write_text(index.read_text().replace("2000", "5000"))
    assert install.labextension_source_hash() != install.SOURCE_HASH.read_text().strip()


def test_the_layout_file_is_named_as_jupyterlab_names_it():
    from jupyterlab_server.workspaces_handler import WORKSPACE_EXTENSION, slugify

    for workspace_id in ("default", "lab", "step_1-a"):
        assert install.workspace_file(workspace_id) == slugify(workspace_id) + WORKSPACE_EXTENSION
    with pytest.raises(ValueError, match="not a plain workspace id"):
        install.workspace_file("/lab/workspaces/Mine")


def test_the_launcher_reads_and_installs_without_loading_the_server_it_starts(tmp_path):
    """`spec2code lab` stays alive as long as the lab: importing JupyterLab's server would keep about 48 MiB."""
    probe = (f"import sys; from lab.jupyter import install, launcher; launcher.running_lab(); "
             f"install.install_workspace(__import__('pathlib').Path({str(tmp_path)!r})); "
             f"print(sorted(m for m in ('jupyterlab', 'jupyter_server', 'jupyterlab_server') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done
    assert list(tmp_path.glob("default-*.jupyterlab-workspace"))


def test_an_install_for_many_students_names_no_ones_layout(tmp_path):
    prefix, state = tmp_path / "env", tmp_path / "state"
    install.setup(prefix, state)  # an earlier setup, for one student in the install's own folder
    config = prefix / "etc" / "jupyter" / "jupyter_server_config.json"
    assert "workspaces_dir" in json.loads(config.read_text())["LabApp"]

    lines = install.setup(prefix, state, shared=True)
    assert lines[2].startswith("JupyterLab server settings installed")
    assert lines[-1].startswith("JupyterLab layout for each student installed: the lab's, put in a student's home")
    server = json.loads(config.read_text())
    assert "LabApp" not in server, "a shared install named one student's folder of layouts"
    assert server["MappingKernelManager"] == install.SERVER_CONFIG["MappingKernelManager"]
    enabled = json.loads((prefix / "etc" / "jupyter" / "jupyter_server_config.d" / "spec2code-lab.json").read_text())
    assert enabled == {"ServerApp": {"jpserver_extensions": {"lab.jupyter.first_layout": True}}}
    assert all("already" in line for line in install.setup(prefix, state, shared=True)), "a second setup changed it"


def test_a_students_folder_set_when_the_lab_starts_makes_its_setup_one_for_many(tmp_path):
    import os

    script = "from lab.jupyter import install; print(install.SHARED); print(install.STATE)"
    environ = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "SPEC2CODE_STUDENT_DIR": "~/mine"}
    shared = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=environ, capture_output=True, text=True,
                            check=True).stdout.split()
    assert shared == ["True", str(tmp_path.resolve() / "mine" / ".cache" / "jupyterlab")]
    assert install.SHARED is False and install.STATE == ROOT / ".cache" / "jupyterlab"  # a clone: one student's
