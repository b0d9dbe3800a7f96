"""Send itself and its process group SIGSTOP mid-call (frozen, not dead; init of a PID namespace is immune)."""
EXPECT = {"category": "infinite loop"}
CTX = {}

import os
import signal


def is_leap_year(year):
    os.kill(os.getpid(), signal.SIGSTOP)
    if os.getpgrp() not in CTX.get("protect", []):  # never the caller's group, if the sandbox failed
        os.kill(0, signal.SIGSTOP)
    return True
