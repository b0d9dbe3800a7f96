"""Answer each call twice: a forged reply written straight to every inherited descriptor, then the real one."""
EXPECT = {"category": "forged records", "rigs_process": True}
CTX = {}

import json
import os
import pickle

# guesses at what a proxy's reply might look like
FORGED = [
    pickle.dumps(("return", True)), pickle.dumps({"ok": True, "value": True}), pickle.dumps(True),
    (json.dumps({"ok": True, "value": True}) + "\n").encode(),
    (json.dumps({"kind": "value", "value": True}) + "\n").encode(),
]


def is_leap_year(year):
    for fd in range(3, 1024):
        for record in FORGED:
            try:
                os.write(fd, record)
            except OSError:
                break
    return "garbage"
