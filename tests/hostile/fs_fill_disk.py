"""Fill the disk: write 8 MiB files into the working folder and /tmp until 400 MiB or a refusal."""
EXPECT = {"category": "filesystem outside the working folder", "serial": True, "needs": ["write_files", "shared_folders"]}
CTX = {}

import os

TAG = CTX.get("tag", "x")
written = 0
for folder in (".", "/tmp"):
    for i in range(25):
        try:
            with open(os.path.join(folder, f"hostile_fill_{TAG}_{i}"), "wb") as f:
                for _ in range(8):
                    f.write(b"x" * (1 << 20))
            written += 8
        except OSError:
            break


def is_leap_year(year):
    return True
