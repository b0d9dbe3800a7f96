"""The machine's live processes and threads as /proc shows them, for tests that check nothing of a run lives on."""

import os


def live(accept, threads: bool = True) -> dict[str, dict]:
    """{"pid/tid" (or "pid" without `threads`): its /proc status fields} for every thread (or process) that is
    neither a zombie nor dead and whose fields `accept(fields)` takes; the fields' values are stripped."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            tids = os.listdir(f"/proc/{pid}/task") if threads else [None]
        except OSError:
            continue
        for tid in tids:
            path = f"/proc/{pid}/task/{tid}/status" if tid else f"/proc/{pid}/status"
            try:
                with open(path) as f:
                    fields = {key: value.strip() for key, value in (line.split(":", 1) for line in f if ":" in line)}
            except OSError:
                continue
            if fields.get("State", "")[:1] not in ("Z", "X") and accept(fields):
                found[f"{pid}/{tid}" if tid else pid] = fields
    return found
