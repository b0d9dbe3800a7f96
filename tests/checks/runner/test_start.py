"""The agent's child is walled in before its code runs: a user of its own, no network, nothing of the project but
what it needs, no way to signal the grader; and when the walls cannot go up, it is not run at all (fail closed)."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

from checks.runner import Agent, LoadFailed
from checks.runner import start as start_py
from checks.runner.link import ladder
from harness.sandbox import slots
from tests.helpers import write_agent

WALLED = pytest.mark.skipif(
    ladder("auto").level != "namespaces" or os.geteuid() != 0,
    reason="the child's full walls need Linux namespaces, as root",
)

PROBE = textwrap.dedent(
    """
    import os, socket

    def extract_code(reply):
        facts = {"uid": os.getuid(), "cwd": os.getcwd()}
        try:
            open(os.path.join(ROOT, "WALL_PROBE"), "w").write("x")
            facts["wrote_lab"] = True
        except OSError:
            facts["wrote_lab"] = False
        try:
            socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
            facts["network"] = True
        except OSError:
            facts["network"] = False
        try:
            os.kill(GRADER, 0)
            facts["grader_signalled"] = True
        except OSError:
            facts["grader_signalled"] = False
        facts["sees"] = sorted(name for name in ("solutions", "tests", "lab", "class") if os.path.exists(ROOT + "/" + name))
        facts["harness"] = os.path.isdir(ROOT + "/harness")
        return repr(facts)
    """
)


@pytest.mark.slow
@WALLED
def test_the_grading_child_runs_as_a_user_of_its_own_without_network_or_write_access(tmp_path, project_root):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    header = f"ROOT = {project_root!r}\nPORT = {listener.getsockname()[1]}\nGRADER = {os.getpid()}\n"
    agent = write_agent(tmp_path, header + PROBE)
    try:
        with Agent(agent) as one, Agent(agent) as other:
            facts = eval(one.call("extract_code", "x"))  # noqa: S307 - our own probe's repr of a dict
            uid_of_other = eval(other.call("extract_code", "x"))["uid"]  # noqa: S307
            assert one.isolation["level"] == "namespaces"
    finally:
        listener.close()
    first = slots.FIRST_UID
    assert first <= facts.pop("uid") < first + 2 * slots.SLOTS and first <= uid_of_other < first + 2 * slots.SLOTS
    assert facts == {
        "cwd": "/work",
        "wrote_lab": False,
        "network": False,
        "grader_signalled": False,
        "sees": [],  # no reference agent, no tests, no learner's side, no class folder
        "harness": True,  # what the agent may use
    }
    assert not os.path.exists(os.path.join(project_root, "WALL_PROBE"))


@pytest.mark.slow
@WALLED
def test_two_children_never_share_a_user(tmp_path):
    agent = write_agent(tmp_path, "import os\n\ndef extract_code(reply):\n    return os.getuid()\n")
    with Agent(agent) as one, Agent(agent) as two:
        assert one.call("extract_code", "x") != two.call("extract_code", "x")


LEAVES_A_DAEMON = textwrap.dedent("""
    import os, time

    def extract_code(reply):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                while True:
                    time.sleep(1)
            os._exit(0)
        return os.getuid()
""")
# The agent's own process leaves the process group the grader kills, too.
LEAVES_ITS_GROUP = "import os\n\nos.setsid()\n" + LEAVES_A_DAEMON


@WALLED
def test_a_daemon_the_agent_leaves_is_gone_when_its_child_stops(tmp_path):
    with Agent(write_agent(tmp_path, LEAVES_A_DAEMON)) as child:
        uid = child.call("extract_code", "x")
    assert not slots.live_users([uid])


@WALLED
def test_once_its_pid_namespace_has_ended_the_childs_user_is_not_hunted_process_by_process(tmp_path, monkeypatch):
    """At the namespaces level the child is the first of a PID namespace: killed through a pidfd, and seen to end, it
    takes every process it started with it, those that left its process group too. No killer runs as its user."""
    scrubbed = []
    with Agent(write_agent(tmp_path, LEAVES_ITS_GROUP)) as child:
        uid = child.call("extract_code", "x")
        # Counted from here: taking a slot that another run left unclean scrubs it first, as it should.
        monkeypatch.setattr(slots, "scrub", lambda *args, **kwargs: scrubbed.append(args))
    assert not slots.live_users([uid])
    assert scrubbed == []


@WALLED
def test_where_the_child_cannot_be_watched_its_user_is_killed_process_by_process(tmp_path, monkeypatch):
    scrubbed = []
    scrub = slots.scrub
    monkeypatch.setattr("checks.runner.link._children", lambda pid: [])  # a kernel that does not list them
    with Agent(write_agent(tmp_path, LEAVES_ITS_GROUP)) as child:
        uid = child.call("extract_code", "x")
        # Counted from here: taking a slot that another run left unclean scrubs it first, as it should.
        monkeypatch.setattr(slots, "scrub", lambda *args, **kwargs: scrubbed.append(args) or scrub(*args, **kwargs))
    assert not slots.live_users([uid])
    assert len(scrubbed) == 1


def test_when_the_walls_cannot_go_up_the_agent_is_not_run(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    agent = write_agent(tmp_path, f"open({str(marker)!r}, 'w').write('x')\n\ndef extract_code(reply):\n    return 1\n")
    # The walls' mount point is gone by the time they go up: whatever the level, putting them up fails half way.
    monkeypatch.setattr("checks.runner.link.tidy.owned_folder", lambda prefix: str(tmp_path / "gone" / prefix))
    with Agent(agent) as child:
        with pytest.raises(LoadFailed, match="could not be walled in .*so it was not run"):
            child.load()
    assert not marker.exists()  # the agent's code never ran


@pytest.mark.skipif(os.geteuid() != 0 or not ladder("auto").own_users, reason="as root, children have users of their own")
def test_as_root_with_no_user_of_its_own_free_the_agent_is_not_run_as_root(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    agent = write_agent(tmp_path, f"open({str(marker)!r}, 'w').write('x')\n\ndef extract_code(reply):\n    return 1\n")
    monkeypatch.setattr("checks.runner.link._take_slot", lambda: None)  # every slot taken, or no lock folder
    with Agent(agent) as child:
        with pytest.raises(LoadFailed, match="no user of the sandbox's range was free for the agent's process, so it "
                                             "was not run"):
            child.load()
    assert not marker.exists()


def test_an_agent_file_too_large_is_refused_before_it_is_read(tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text("# padding\n" * 200_000 + "def extract_code(reply):\n    return reply\n")
    with Agent(agent) as child, pytest.raises(LoadFailed, match=r"is 1\.9 MB; the lab reads agent files up to 1 MB"):
        child.load()


USER_LEVEL_PROBE = textwrap.dedent(
    """
    import os

    def extract_code(reply):
        facts = {"uid": os.getuid()}
        for name, path in (("read_shadow", "/etc/shadow"), ("wrote_lab", ROOT + "/WALL_PROBE")):
            try:
                open(path, "a" if name == "wrote_lab" else "r").close()
                facts[name] = True
            except OSError:
                facts[name] = False
        try:
            os.kill(GRADER, 0)
            facts["grader_signalled"] = True
        except OSError:
            facts["grader_signalled"] = False
        import harness, stat
        here = os.getcwd()
        facts["lab_in_place"] = os.path.abspath(harness.__file__).startswith(ROOT + os.sep)
        facts["agent_in_own_folder"] = os.path.abspath(__file__).startswith(here + os.sep)
        def mine(path):
            info = os.stat(path)
            return [info.st_uid == os.getuid(), oct(stat.S_IMODE(info.st_mode))]
        facts["here"], facts["own_folder"] = here, mine(here)
        # all but the grader's own note of who made the folder (root's, for reclaiming it: see harness/sandbox/tidy.py)
        facts["copy"] = sorted({tuple(mine(os.path.join(top, name))) for top, folders, files in os.walk(here)
                                for name in folders + files if name != ".spec2code-owner"})
        return repr(facts)
    """
)

UNDER_DOCKER = """
import json, os, sys
sys.path.insert(0, os.getcwd())
from checks.runner import Agent
folder, root, probe = sys.argv[1:]
agent = os.path.join(folder, "agent.py")
with open(agent, "w") as f:
    f.write(f"ROOT = {root!r}\\nGRADER = {os.getpid()}\\n" + probe)
os.chmod(agent, 0o644)
with Agent(agent) as child:
    facts = eval(child.call("extract_code", "x"))
facts["left_behind"] = os.path.exists(facts.pop("here"))  # its folder, once it has stopped
print(json.dumps({"level": child.isolation["level"], **facts}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", [0o755, 0o700], ids=["agent readable by all", "agent in a private folder"])
def test_under_dockers_default_walls_the_child_is_a_user_of_its_own(project_root, mode):
    """Root without CAP_SYS_ADMIN (Docker's default, Gradescope): no namespaces, so the child gets the `user` level,
    never root: it cannot read /etc/shadow, write in the lab or signal the grader. Wherever the agent is, it reads
    its own copy of the lab and of the agent, which only its user may read (see checks/runner/reach.py)."""
    from tests.harness.sandbox import identities

    if identities.need_root() or not identities.python():
        pytest.skip(identities.need_root() or "no Python every user may run")
    folder = tempfile.mkdtemp(prefix="spec2code-test-agent-")
    os.chmod(folder, mode)
    try:
        done = identities.run(identities.as_docker_default(
            [identities.python(), "-c", UNDER_DOCKER, folder, str(project_root), USER_LEVEL_PROBE]), timeout=120)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout.splitlines()[-1])
    assert facts.pop("level") == "user"
    assert slots.FIRST_UID <= facts.pop("uid") < slots.FIRST_UID + 2 * slots.SLOTS
    assert facts == {"read_shadow": False, "wrote_lab": False, "grader_signalled": False, "lab_in_place": False,
                     "agent_in_own_folder": True, "own_folder": [True, "0o700"],
                     "copy": [[True, "0o400"], [True, "0o500"]],  # its own user's, read-only, whatever the modes
                     "left_behind": False}
    assert not os.path.exists(os.path.join(project_root, "WALL_PROBE"))


GRADER_THAT_DIES = """
import sys
from checks.runner import Agent
agent = Agent(sys.argv[1]).__enter__()
agent.load()  # the agent hangs while it loads: the test kills this process before the load's time limit
"""


def live_children(agent) -> list[int]:
    """The agent's children still alive (not zombies): processes whose command line names this agent file."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read()
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if b"child.py" in command and str(agent).encode() in command and state != "Z":
            found.append(int(pid))
    return found


def test_when_the_grader_dies_however_it_dies_its_child_dies_too():
    """A grader killed while its agent loads (`timeout` on Gradescope, out of memory) leaves no agent running."""
    folder = tempfile.mkdtemp(prefix="spec2code-test-agent-")
    os.chmod(folder, 0o755)
    agent = write_agent(folder, "while True:\n    pass\n")
    os.chmod(agent, 0o644)
    grader = subprocess.Popen([sys.executable, "-c", GRADER_THAT_DIES, str(agent)], cwd=os.getcwd())
    try:
        deadline = time.monotonic() + 60
        while not live_children(agent) and time.monotonic() < deadline and grader.poll() is None:
            time.sleep(0.1)
        assert live_children(agent) and grader.poll() is None, "the agent's child never started"
        grader.kill()
        grader.wait()
        deadline = time.monotonic() + 10
        while live_children(agent) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert live_children(agent) == []
    finally:
        for pid in live_children(agent):  # only this test's own agent, if the assertion above failed
            os.kill(pid, 9)
        grader.kill()
        shutil.rmtree(folder, ignore_errors=True)


SEES = textwrap.dedent(
    """
    import json, os, sys
    with open(sys.argv[1], "w") as f:
        json.dump({"argv": sys.argv, "path0": sys.path[0], "name": __name__, "same_python": "start" in sys.modules,
                   "by_name": [n for n in ("linux", "walls", "levels") if n in sys.modules]}, f)
    """
)
BECOME = ("import sys; sys.path.insert(0, sys.argv[1]); import start; start.sandbox_modules(); "
          "start.become([sys.executable, *sys.argv[2:]])")


@pytest.mark.parametrize("flag, same_python", [("-I", True), ("-E", False)])
def test_the_child_goes_on_in_the_walled_process_as_its_own_command_would_run_it(tmp_path, flag, same_python):
    """Once the walls are up, `python -I child.py ARGS` on the same Python runs in that process (no second start of
    Python); any other command is exec'd. Either way the script sees its own argv and folder, and none of the modules
    the walls were loaded by name from."""
    script, out = tmp_path / "child" / "script.py", tmp_path / "seen.json"
    script.parent.mkdir()
    script.write_text(SEES)
    runner = os.path.dirname(start_py.__file__)
    subprocess.run([sys.executable, "-I", "-c", BECOME, runner, flag, str(script), str(out)], check=True, timeout=60)
    seen = json.loads(out.read_text())
    assert seen == {"argv": [str(script), str(out)], "path0": str(script.parent), "name": "__main__",
                    "same_python": same_python, "by_name": []}
