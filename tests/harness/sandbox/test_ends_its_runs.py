"""At the user level (root with Docker's default walls: no namespaces, so no PID namespace ends a run's processes),
run() returns only once every process a run started is gone: a tight fork loop, a sleeper that ignores SIGTERM, a
thread left behind a zombie."""

import json

import pytest

from tests.harness.sandbox import identities

pytestmark = [
    pytest.mark.slow,  # eight runs under Docker's default walls
    pytest.mark.skipif(identities.need_root() is not None or identities.python() is None,
                       reason=str(identities.need_root() or "no Python every user may run")),
]


def test_at_the_user_level_no_process_of_a_run_outlives_its_return():
    done = identities.run(identities.as_docker_default([identities.python(),
                                                        identities.script("tests/harness/sandbox/_ends_its_runs.py")]),
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["isolation"] == ["user"] and found["euid"] == 0, found
    assert found["left"] == {}, found["left"]
