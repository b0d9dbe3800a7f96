"""Send itself SIGSTOP mid-call: the process is frozen, not dead."""
EXPECT = {"category": "infinite loop", "error": ["timeout"]}
CTX = {}

import os
import signal


def is_leap_year(year):
    os.kill(os.getpid(), signal.SIGSTOP)
    return True
