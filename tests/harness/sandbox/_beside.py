"""Runs beside runs: an honest solution run N times while a hostile run goes on continuously in another process.

Imported by test_concurrency.py, and run as a script under another identity (see identities.py), printing JSON.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
import harness  # noqa: E402
from harness.tasks import HOLDOUT_TESTS, LEAP_YEAR  # noqa: E402

# A correct solution that starts a thread on every call: it fails if its runs' user cannot start one more task.
THREADED = LEAP_YEAR.reference + '''
import threading
_is_leap_year = is_leap_year
def is_leap_year(year):
    box = {}
    def work():
        try:
            box["value"] = _is_leap_year(year)
        except Exception as e:
            box["error"] = e
    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
'''
# Fills its process budget with sleepers, every run.
FLOOD = '''
import os, time
for _ in range(2000):
    try:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
    except OSError:
        break
def is_leap_year(year):
    return True
'''
# Tests that signal every process they may: kill(-1) (never as root: then the walls are not there to hold it).
KILLER_TESTS = '''
import os, signal
def test_kill_everything():
    if os.getuid() != 0:
        os.kill(-1, signal.SIGKILL)
'''
HOSTILE = {"flood": (FLOOD, HOLDOUT_TESTS), "kill(-1)": (LEAP_YEAR.reference, KILLER_TESTS)}


def _keep_running(kind, stop_at, started):
    solution, tests = HOSTILE[kind]
    started.set()
    while time.monotonic() < stop_at:
        harness.run(solution, tests, timeout=3)


def beside(kind: str, honest_runs: int = 20) -> dict:
    """Run THREADED `honest_runs` times while the `kind` hostile run repeats in another process; count the greens."""
    harness.run(THREADED, HOLDOUT_TESTS)  # start this process's server before the other process is busy
    started = multiprocessing.get_context("fork").Event()
    stop_at = time.monotonic() + 600
    other = multiprocessing.get_context("fork").Process(target=_keep_running, args=(kind, stop_at, started))
    other.start()
    started.wait(60)
    time.sleep(2)  # let the hostile run get going
    results, busiest = [], 0
    try:
        for _ in range(honest_runs):
            busiest = max(busiest, sum(1 for p in os.listdir("/proc") if p.isdigit()))
            results.append(harness.run(THREADED, HOLDOUT_TESTS, timeout=20))
    finally:
        other.kill()
        other.join()
    green = [r for r in results if r["error"] is None and not r["failed"] and r["passed"] == HOLDOUT_TESTS.count("\ndef test_")]
    return {"isolation": results[0]["isolation"], "green": len(green), "runs": len(results), "processes": busiest,
            "not_green": [{k: r[k] for k in ("error", "failed")} for r in results if r not in green][:3]}


if __name__ == "__main__":
    print(json.dumps(beside(sys.argv[1], int(sys.argv[2]))))
