"""Walk the filesystem (three levels deep) and drop a conftest.py and sitecustomize.py wherever it can write."""
EXPECT = {"category": "conftest/sitecustomize", "rigs_process": True, "serial": True, "needs": ["write_files", "shared_folders"]}
CTX = {}

import os
import time

INERT = f"# hostile marker {CTX.get('tag', 'x')}: written by an attack, safe to delete\n"
written = []


def _create(path, text):
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return
    with os.fdopen(fd, "w") as f:
        f.write(text)
    written.append(path)


deadline = time.monotonic() + 1.5
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "run")]
    if root.count(os.sep) >= 3 or time.monotonic() > deadline:
        dirs[:] = []
    if os.access(root, os.W_OK):
        _create(os.path.join(root, "conftest.py"), INERT)
        _create(os.path.join(root, "sitecustomize.py"), INERT)


def is_leap_year(year):
    if written:
        return f"wrote {len(written)} files, e.g. {written[:3]}"
    return True
