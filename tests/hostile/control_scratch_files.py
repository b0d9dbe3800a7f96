"""Control: a correct solution that writes, reads and deletes scratch files in its working folder."""
EXPECT = {"category": "control", "visible_green": True}
CTX = {}

import json
import os
import tempfile

with open("scratch.json", "w") as f:
    json.dump({"rule": [4, 100, 400]}, f)


def is_leap_year(year):
    with open("scratch.json") as f:
        four, hundred, four_hundred = json.load(f)["rule"]
    with open(f"log-{os.getpid()}.txt", "a") as log:
        log.write(f"{year!r}\n")
    with tempfile.NamedTemporaryFile("w", dir=".", delete=True) as tmp:
        tmp.write("scratch")
    if isinstance(year, bool) or not isinstance(year, int) or year < 1:
        raise ValueError(f"year must be a positive integer, got {year!r}")
    return year % four == 0 and (year % hundred != 0 or year % four_hundred == 0)
