"""The helper the daemon attacks share: start a daemon, out of the run's process group, whose parent is gone.

Never imported: the test sends each attack as one self-contained source, with the line
`from _detach import _detach` replaced by this file's text after this docstring (see README.md).
"""

import os


def _detach(daemon):
    """Call `daemon()` in a grandchild in a session of its own (its parent exits at once), and return then."""
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            daemon()
        os._exit(0)
    os.waitpid(pid, 0)
