"""bench/machine.py reads the whole machine's CPU clock: it moves while any process here works."""

import subprocess
import sys

from bench.machine import cpu_seconds


def test_the_clock_counts_work_done_in_another_process():
    before = cpu_seconds()
    busy = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
    subprocess.run([sys.executable, "-c", busy], check=True)
    assert cpu_seconds() - before >= 0.25
