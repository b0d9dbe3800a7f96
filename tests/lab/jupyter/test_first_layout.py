"""The lab's first layout where one install serves many students: put in the student's home, at their folder."""

import json
import logging
from pathlib import Path

from lab.jupyter import first_layout, install


class Server:
    """What the extension reads of the Jupyter server: its folder, its settings, its log."""

    def __init__(self, root_dir, config):
        self.root_dir, self.config, self.log = str(root_dir), config, logging.getLogger("server")


def test_the_layouts_files_are_taken_from_the_students_folder():
    layout = first_layout.placed("spec2code-lab")
    data = layout["data"]
    dock = data["layout-restorer:data"]["main"]["dock"]["children"]
    assert [area["widgets"] for area in dock] == [["notebook:spec2code-lab/notebooks/00_start.ipynb"],
                                                  ["editor:spec2code-lab/lab/agent.py"]]
    assert data["editor:spec2code-lab/lab/agent.py"] == {"data": {"path": "spec2code-lab/lab/agent.py",
                                                                 "factory": "Editor"}}
    assert data["file-browser-filebrowser:cwd"] == {"path": "spec2code-lab"}
    assert first_layout.placed(".") == json.loads(install.WORKSPACE.read_text()), "the server's own folder moved it"


def test_at_a_servers_start_the_layout_goes_where_jupyterlab_keeps_them_unless_one_is_there(tmp_path, monkeypatch):
    home, folders = tmp_path / "home", tmp_path / "layouts"
    monkeypatch.setattr(install, "SHARED", True)
    monkeypatch.setattr(first_layout, "STUDENT_ROOT", home / "spec2code-lab")
    first_layout._load_jupyter_server_extension(Server(home, {"LabApp": {"workspaces_dir": str(folders)}}))
    [written] = folders.iterdir()
    assert written.name == install.workspace_file("default")
    assert json.loads(written.read_text()) == first_layout.placed("spec2code-lab")

    written.write_text('{"data": {}, "metadata": {"id": "default"}}')  # the student's own, since
    first_layout._load_jupyter_server_extension(Server(home, {"LabApp": {"workspaces_dir": str(folders)}}))
    assert written.read_text() == '{"data": {}, "metadata": {"id": "default"}}'


def test_nothing_is_written_for_a_clone_or_a_folder_the_server_does_not_serve(tmp_path, monkeypatch, caplog):
    config = {"LabApp": {"workspaces_dir": str(tmp_path / "layouts")}}
    first_layout._load_jupyter_server_extension(Server(tmp_path, config))  # a clone: install.SHARED is False
    monkeypatch.setattr(install, "SHARED", True)
    monkeypatch.setattr(first_layout, "STUDENT_ROOT", Path("/elsewhere/spec2code-lab"))
    first_layout._load_jupyter_server_extension(Server(tmp_path / "home", config))
    assert not (tmp_path / "layouts").exists()
    assert "/elsewhere/spec2code-lab is outside" in caplog.text


def test_without_a_setting_the_folder_is_jupyterlabs_own(monkeypatch, tmp_path):
    monkeypatch.setenv("JUPYTERLAB_WORKSPACES_DIR", str(tmp_path))
    assert first_layout.workspaces_folder({}) == tmp_path
