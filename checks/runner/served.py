"""What answers an agent's harness.run by default: the sandbox, with the run kept in the audit trail if one is on."""

from __future__ import annotations

import time


def harness_run(solution: str, tests: str, timeout=None) -> dict:
    import harness
    from harness import trail

    started = time.perf_counter()
    result = harness.run(solution, tests, **({} if timeout is None else {"timeout": timeout}))
    recording = trail.active()  # the audit trail, kept here so that any agent leaves one
    if recording is not None:
        recording.run(solution, tests, result, time.perf_counter() - started)
    return result
