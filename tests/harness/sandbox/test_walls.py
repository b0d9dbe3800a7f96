"""walls: any process (the grader's agent child, say) climbs the same ladder with one call and learns the level."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from tests.paths import ROOT

ENTER = """
import json, os, sys
sys.path.insert(0, {sandbox!r})
import walls
reached = walls.enter(walls.choose({asked!r}), mountpoint={mountpoint!r}, workdir="/work")
print(json.dumps({{"level": reached["level"], "via": reached["via"], "uid": os.getuid(), "pid": os.getpid(),
                  "sees_project": os.path.exists({project!r}), "cwd": os.getcwd(),
                  "lab_package": "harness" in sys.modules}}), flush=True)
"""


@pytest.mark.parametrize("asked", ["auto", "process"])
def test_one_call_puts_up_the_strongest_level_asked_for_and_says_which(asked):
    with tempfile.TemporaryDirectory() as mountpoint:
        code = ENTER.format(sandbox=str(ROOT / "harness" / "sandbox"), asked=asked, mountpoint=mountpoint,
                            project=str(ROOT / "harness" / "tasks.py"))
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    assert not facts["lab_package"]  # the ladder (and its table, harness/levels.py) loaded by name, not as `harness`
    if asked == "process":
        assert facts["level"] == "process"
    elif facts["level"] == "namespaces":
        assert facts["pid"] == 1 and facts["uid"] != 0 and facts["cwd"] == "/work"
        assert not facts["sees_project"]
    else:
        assert facts["level"] in ("user", "process")


KEEPER_DIES_EARLY = """
import os, signal, sys, time
sys.path.insert(0, {sandbox!r})
import walls
ladder = walls.Ladder("process", walls.ASKED)  # as root, only a process level asked for may run
walls.begin(ladder, os.getuid(), os.getgid(), fork=True)  # this process goes on as the walled child
with open({marks!r}, "a") as f:
    f.write(f"{{os.getpid()}}\\n")
os.kill(os.getppid(), signal.SIGKILL)  # its keeper dies (its grader was killed) before the walls are up
time.sleep(0.5)
walls.finish(ladder, os.getuid(), os.getgid(), mountpoint={folder!r}, workdir={folder!r})
with open({marks!r}, "a") as f:
    f.write("ran on\\n")
"""


@pytest.mark.slow
def test_a_walled_child_whose_keeper_died_before_its_walls_were_up_ends_instead_of_running_unwatched(tmp_path):
    marks = tmp_path / "marks"
    code = KEEPER_DIES_EARLY.format(sandbox=str(ROOT / "harness" / "sandbox"), marks=str(marks), folder=str(tmp_path))
    keeper = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert keeper.returncode == -9, keeper.stderr
    deadline = time.monotonic() + 30
    while not marks.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(marks.read_text().split()[0])
    _wait_until_ended(child, deadline)
    assert marks.read_text().split() == [str(child)], "the child ran on after its keeper had gone"


def _wait_until_ended(pid, deadline):
    """Wait until `pid` has ended (gone, or a zombie nobody reaps), or until `deadline`."""
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except OSError:
            return
        time.sleep(0.05)


CHOOSE = """
import json, sys
sys.path.insert(0, {sandbox!r})
import walls
print(json.dumps(walls.choose().describe()))
"""


@pytest.mark.slow
def test_a_python_installed_under_tmp_gets_namespaces_as_root():
    """The ladder's probe mounts its root over /tmp: the runtime's folders, found before, are still shown (it
    used to fall to `user`, a Python under /tmp hidden from its own probe)."""
    from harness.sandbox import linux, reachable

    if os.geteuid() != 0 or not linux.has_capability(linux.CAP_SYS_ADMIN):
        pytest.skip("needs root with CAP_SYS_ADMIN")
    parent = tempfile.mkdtemp(prefix="spec2code-test-", dir="/tmp")
    os.chmod(parent, 0o755)
    try:
        python, env = reachable.readable_copy(parents=(parent,))
        done = subprocess.run([python, "-I", "-c", CHOOSE.format(sandbox=str(ROOT / "harness" / "sandbox"))],
                              capture_output=True, text=True, timeout=60, env={**os.environ, **env})
    finally:
        shutil.rmtree(parent, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    reached = json.loads(done.stdout)
    assert (reached["level"], reached["via"]) == ("namespaces", "root"), reached["notes"]


def test_as_root_the_process_level_is_refused_unless_it_was_asked_for():
    from harness.sandbox import walls

    if not walls.as_root():
        pytest.skip("needs root: a normal user's process level runs as that user")
    refused = walls.Ladder("process").refused
    assert refused.startswith("the sandbox will not run untrusted code as root: ")
    assert refused.endswith(", or set SPEC2CODE_ISOLATION=process to accept running it as root")
    with pytest.raises(OSError, match="will not run untrusted code as root"):
        walls.finish(walls.Ladder("process"), 0, 0, workdir="")  # nothing is put up: it refuses first
    asked = walls.choose("process")
    assert (asked.level, asked.via, asked.refused) == ("process", walls.ASKED, "")
    assert not walls.Ladder("user").refused and not walls.Ladder("namespaces", "root").refused


FORK_TO_WALL = """
import json, os, sys
sys.path.insert(0, {sandbox!r})
import linux, walls
ladder = walls.choose() if {level!r} == "auto" else walls.Ladder({level!r}, walls.ASKED)
told, tell = os.pipe()
hold, held = os.pipe()
pid = walls.fork_to_wall(ladder)
if pid == 0:
    os.close(told)
    os.close(held)
    before = os.getpid()
    walls.begin(ladder, os.getuid(), os.getgid(), fork=True)  # a keeper would fork: we would go on in its child
    status = open("/proc/self/status").read()
    nspid = next(line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:"))
    os.write(tell, json.dumps({{"nspid": nspid, "kept": os.getpid() != before, "watched": linux.watched(),
                                "watching": linux.keeper_fd() is not None}}).encode())
    os.read(hold, 1)  # alive until the parent has looked at it
    os._exit(0)
os.close(tell)
os.close(hold)
child = json.loads(os.read(told, 4096))
parent = int(open(f"/proc/{{pid}}/stat").read().rsplit(")", 1)[1].split()[1])
os.close(held)
os.waitpid(pid, 0)
own = os.stat("/proc/self/ns/pid").st_ino == os.stat("/proc/self/ns/pid_for_children").st_ino
print(json.dumps({{**child, "level": ladder.level, "via": ladder.via, "parent": parent == os.getpid(),
                  "pid": pid, "own": own}}))
"""


def _fork_to_wall(level):
    code = FORK_TO_WALL.format(sandbox=str(ROOT / "harness" / "sandbox"), level=level)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_as_root_a_run_s_process_is_born_the_first_of_its_pid_namespace_with_no_keeper():
    """The server (or the test process) makes the PID namespace and goes back to its own, so no keeper process is
    forked and ended per side of every run; the child watches its parent through a pidfd until its walls are up."""
    from harness.sandbox import linux, walls

    if not walls.as_root() or not linux.has_capability(linux.CAP_SYS_ADMIN) or not linux.pidfds():
        pytest.skip("needs root with CAP_SYS_ADMIN and a kernel with pidfds")
    found = _fork_to_wall("auto")
    assert (found["level"], found["via"]) == ("namespaces", "root")
    assert found["nspid"] == [str(found["pid"]), "1"]  # its pid here, and 1 in a namespace of its own
    assert found["parent"] and not found["kept"] and found["watched"] and found["watching"]
    assert found["own"], "the parent's next children would be born in the child's PID namespace"


def test_below_the_namespaces_level_the_solution_s_process_needs_no_keeper():
    from harness.sandbox import linux

    if not linux.pidfds():
        pytest.skip("needs a kernel with pidfds")
    found = _fork_to_wall("process")
    assert found["nspid"] == [str(found["pid"])] and found["parent"] and found["own"]
    assert not found["kept"] and found["watched"] and found["watching"]


PARENT_DIES_EARLY = """
import os, signal, sys, time
sys.path.insert(0, {sandbox!r})
import walls
ladder = walls.choose() if {level!r} == "auto" else walls.Ladder({level!r}, walls.ASKED)
pid = walls.fork_to_wall(ladder)
if pid == 0:
    walls.begin(ladder, os.getuid(), os.getgid(), fork=True)
    marks = os.open({marks!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT)  # kept open: still ours behind the walls
    status = open("/proc/self/status").read()
    os.write(marks, next(line.split()[1] for line in status.splitlines() if line.startswith("NSpid:")).encode() + b"\\n")
    time.sleep(0.5)  # meanwhile its parent is killed (its server was), before the walls are up
    walls.finish(ladder, 65534, 65534, mountpoint={folder!r}, workdir="/work" if ladder.namespaces else {folder!r})
    os.write(marks, b"ran on\\n")
    os._exit(0)
while not os.path.exists({marks!r}):
    time.sleep(0.01)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.slow
@pytest.mark.parametrize("level", ["auto", "process"])
def test_a_child_born_without_a_keeper_whose_parent_died_before_its_walls_were_up_ends_instead_of_running(
        tmp_path, level):
    from harness.sandbox import linux, walls

    if not linux.pidfds():
        pytest.skip("needs a kernel with pidfds")
    if level == "auto" and (not walls.as_root() or not linux.has_capability(linux.CAP_SYS_ADMIN)):
        pytest.skip("needs root with CAP_SYS_ADMIN")
    marks, folder = tmp_path / "marks", tmp_path / "root"
    folder.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(folder, 0o777)
    code = PARENT_DIES_EARLY.format(sandbox=str(ROOT / "harness" / "sandbox"), marks=str(marks), folder=str(folder),
                                    level=level)
    parent = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert parent.returncode == -9, parent.stderr
    child = int(marks.read_text().split()[0])
    _wait_until_ended(child, time.monotonic() + 30)
    assert marks.read_text().split() == [str(child)], "the child ran on after its parent had gone"
