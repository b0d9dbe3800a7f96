"""A run whose tests call the solution many times keeps its two processes on one core; one of few calls never moves."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import harness
from harness.sandbox import cores
from tests.harness.sandbox.identities import SANDBOX

TWO_CORES = pytest.mark.skipif(len(cores.usable()) < 2, reason="one core here: there is no other core to move to")
# The solution says where it may run; the tests compare it with where they may run, call after call.
WHERE = "import os\n\ndef where():\n    return sorted(os.sched_getaffinity(0))\n"
TESTS = """
import os

def test_calls():
    seen = [(where(), sorted(os.sched_getaffinity(0))) for _ in range({calls})]
    assert False, repr(seen)
"""


def in_a_process(code: str):
    """Run `code` (which prints JSON) in a process of its own with the sandbox's modules importable by name, as in
    the server: a process moved to a core stays there, and this one runs the rest of the suite."""
    folders = [str(SANDBOX), str(SANDBOX.parent)]  # and harness/ for text.py, which imports nothing of the lab
    prelude = f"import json, os, sys\nsys.path[:0] = {folders!r}\nimport cores\n"
    done = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, check=True,
                          timeout=60)
    return json.loads(done.stdout)


def seen(result) -> list:
    """What the test saw at each call, (the solution's cores, the test's cores), read out of its failure report."""
    assert result["failed"] == ["test_calls"], result
    return ast.literal_eval(result["output"].split("AssertionError: ", 1)[1].splitlines()[0])


@pytest.mark.parametrize("core", [None, True, "0", 1.0, -1, 1 << 70])
def test_only_a_core_number_moves_a_process(core):
    moved, where = in_a_process(f"print(json.dumps([cores.pin({core!r}), sorted(os.sched_getaffinity(0))]))")
    assert moved is None and where == sorted(os.sched_getaffinity(0))


@TWO_CORES
def test_a_process_pinned_where_it_runs_then_steps_aside_to_the_other_cores():
    core, pinned, aside = in_a_process(
        "core = cores.pin_here()\npinned = sorted(os.sched_getaffinity(0))\ncores.step_aside(core)\n"
        "print(json.dumps([core, pinned, sorted(os.sched_getaffinity(0))]))")
    assert pinned == [core] and aside == sorted(set(cores.usable()) - {core})


@TWO_CORES
@pytest.mark.parametrize("level", ["auto", "process"])
def test_from_the_many_callsth_call_both_sides_share_one_core(monkeypatch, level):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", level)
    calls = seen(harness.run(WHERE, TESTS.format(calls=cores.MANY_CALLS + 10)))
    before, after = calls[: cores.MANY_CALLS - 1], calls[cores.MANY_CALLS - 1 :]
    everywhere = cores.usable()
    assert all(mine == theirs == everywhere for mine, theirs in before), before
    (core,) = after[0][0]
    assert all(mine == theirs == [core] for mine, theirs in after), after


@TWO_CORES
def test_a_run_of_fewer_calls_never_moves():
    calls = seen(harness.run(WHERE, TESTS.format(calls=cores.MANY_CALLS - 1)))
    assert all(mine == theirs == cores.usable() for mine, theirs in calls), calls


@TWO_CORES
@pytest.mark.slow
def test_runs_of_many_calls_from_two_threads_are_green_with_both_sides_of_each_on_one_core():
    counting = "def double(x):\n    return 2 * x\n" + WHERE
    tests = ("import os\n\ndef test_many():\n    for i in range(2000):\n        assert double(i) == 2 * i\n"
             "    assert where() == sorted(os.sched_getaffinity(0)) and len(where()) == 1\n")
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: harness.run(counting, tests, timeout=60), range(4)))
    assert [r["passed"] for r in results] == [1] * 4, [r["output"] for r in results]


def test_the_solutions_side_answers_whatever_the_tests_send_it_about_cores():
    # Test code shares the test process with the wire, and can write any frame to the solution's side.
    replies = in_a_process(
        "import socket, threading, types\nimport solution_side, wire\n"
        "ours, theirs = socket.socketpair()\nours.settimeout(10)\nmodule = types.ModuleType('solution')\n"
        "exec('def f(x):\\n    return x\\n', module.__dict__)\n"
        "threading.Thread(target=solution_side.serve_calls, args=(theirs, module), daemon=True).start()\n"
        "replies = []\n"
        "for request in (5, [1], 'core', {'call': 'f', 'args': [7], 'kwargs': {'$dict': []}, 'core': 'x'},\n"
        "                {'call': 'f', 'args': [8], 'kwargs': {'$dict': []}, 'core': -3}):\n"
        "    wire.send_frame(ours, request)\n"
        "    replies.append(wire.recv_frame(ours))\n"
        "print(json.dumps(replies))\n")
    assert [sorted(reply) for reply in replies[:3]] == [["raise"]] * 3, replies
    assert replies[3:] == [{"value": 7}, {"value": 8}], replies


def test_a_core_that_cannot_be_had_is_no_failure_of_the_test_that_calls():
    # Inside a test's call to the solution: whatever the kernel or ctypes says, the call goes on unpinned.
    found = in_a_process(
        "def refuse(*args):\n    raise MemoryError\n"
        "os.sched_setaffinity = refuse\n"
        "print(json.dumps([cores.pin(0), cores.pin_here(), cores.step_aside(0)]))")
    assert found == [None, None, None]
