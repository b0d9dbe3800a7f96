"""slots: each run takes two users of its own, never the same as another holder's, scrubbed before and after."""

import os
import signal
import subprocess
import time

import pytest

from harness.sandbox import slots

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="per-run users need root")


@pytest.fixture
def folder():
    found = slots.lock_folder()
    if not found:
        pytest.skip("no private folder for run locks here")
    return found


def test_slots_held_at_once_never_share_a_user_and_come_back_when_released(folder):
    held = [slots.acquire(folder) for _ in range(20)]
    uids = [uid for slot in held for uid in slot.uids]
    assert len(set(uids)) == 40 and all(slots.FIRST_UID <= uid < slots.FIRST_UID + 2 * slots.SLOTS for uid in uids)
    for slot in held:
        slots.release(slot)


def test_a_slot_held_by_another_process_is_never_handed_out(folder):
    slot = slots.acquire(folder)
    other = subprocess.run(["python3", "-c", f"""
import fcntl, os
fd = os.open({folder!r} + "/{slot.number}", os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("taken")
except OSError:
    print("busy")
"""], capture_output=True, text=True)
    assert other.stdout.strip() == "busy"
    slots.release(slot)


def test_scrubbing_kills_every_process_of_the_slots_users(folder):
    slot = slots.acquire(folder)
    uid = slot.solution
    sleepers = [subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "60"])
                for _ in range(3)]
    time.sleep(0.2)
    slots.scrub(slot)
    for sleeper in sleepers:
        assert sleeper.wait(5) == -signal.SIGKILL
    slots.release(slot)


def test_scrubbing_deletes_what_the_slots_users_left_in_every_folder_anyone_may_write(folder):
    anyones = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock")  # as systemd makes them
    shared = [path for path in anyones if os.path.isdir(path) and os.stat(path).st_mode & 0o002]
    assert "/tmp" in shared
    slot = slots.acquire(folder)
    uid = slot.solution
    notes = [os.path.join(path, f"spec2code-test-slot-note-{os.getpid()}") for path in shared]
    for note in notes:
        as_user = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        subprocess.run([*as_user, "sh", "-c", f"echo x > {note}"], check=True)
    assert all(os.path.exists(note) for note in notes)
    slots.scrub(slot)
    slots.release(slot)
    assert [note for note in notes if os.path.exists(note)] == []
