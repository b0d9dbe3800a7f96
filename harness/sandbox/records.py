"""The caller's side of a run's two pipes: send the sources down one, read the run's records from the other."""

from __future__ import annotations

import json
import os
import select
import time

MAX_RECORDS = 4 << 20  # bytes of records read from one run before the rest is ignored


def exchange(req_w, res_r, payload, deadline):
    """Send the sources, then collect the run's records until it ends or the deadline passes."""
    events, buf, received = [], bytearray(), 0
    sent, writing = 0, True
    os.set_blocking(req_w, False)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if writing:
                os.close(req_w)
            return events, True
        ready_r, ready_w, _ = select.select([res_r], [req_w] if writing else [], [], remaining)
        if ready_w:
            try:
                sent += os.write(req_w, payload[sent : sent + (1 << 16)])
            except (BrokenPipeError, BlockingIOError):
                sent = len(payload)
            if sent >= len(payload):
                os.close(req_w)
                writing = False
        if ready_r:
            chunk = os.read(res_r, 1 << 16)
            if not chunk:
                if writing:
                    os.close(req_w)
                return events, False
            received += len(chunk)
            if received > MAX_RECORDS:
                continue
            start = len(buf)
            buf += chunk
            end = buf.rfind(b"\n", start)
            if end < 0:
                continue
            for line in bytes(buf[:end]).split(b"\n"):
                try:
                    event = json.loads(line)
                except Exception:  # noqa: BLE001 - malformed or nested too deeply: not a record
                    continue
                if isinstance(event, dict):
                    events.append(event)
                    if event.get("event") == "done":  # no need to wait for the test process to exit: it is killed
                        return events, False
            del buf[: end + 1]
