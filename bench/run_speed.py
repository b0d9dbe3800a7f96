"""Benchmark: harness.run against a fresh pytest process per round, a bare interpreter and a fork, side by side.

Run on demand (not part of the test suite; shared machines are noisy, so only ratios measured in one run mean
anything). It measures the floor (bench/floor.py) and one run back to back and spaced, stage by stage, in the same
run, with the CPU a run costs the machine, and a run that tests nothing: what the walls alone cost. It also measures
run() against a pytest process at every isolation level this machine gives, each in a process of its own: as root,
as a normal user (user namespaces) and as root with Docker's default walls (those two need root, see
tests/harness/sandbox/identities.py), and at the process level:

    .venv/bin/python bench/run_speed.py [--rounds 30] [--memory-runs 1000] [--check] [--levels]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import harness  # noqa: E402
from bench import floor  # noqa: E402
from bench.machine import cpu_seconds  # noqa: E402
from harness.model import offline as offline_model  # noqa: E402
from harness.sandbox import caller  # noqa: E402
from harness.tasks import LEAP_YEAR, SPEC  # noqa: E402

REFERENCE_SOLUTION = LEAP_YEAR.reference


def visible_tests() -> str:
    from solutions.agent import extract_code

    return extract_code(offline_model.reply(f"Write pytest tests for this spec:\n{SPEC}"))


def time_once(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def pytest_process_round(folder: str, tests: str) -> None:
    """The tutorial way: write files, start `python -m pytest` in a fresh process, read its exit code."""
    with open(os.path.join(folder, "solution.py"), "w") as f:
        f.write(REFERENCE_SOLUTION)
    with open(os.path.join(folder, "test_solution.py"), "w") as f:
        f.write("from solution import *\n" + tests)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", folder],
        cwd=folder, capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]


def sandbox_round(tests: str, solution: str = REFERENCE_SOLUTION) -> None:
    result = harness.run(solution, tests)
    assert result["error"] is None and not result["failed"] and result["passed"] > 0, result


def bare_interpreter() -> None:
    subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True)


def fork_only() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


EMPTY_SOLUTION, EMPTY_TEST = "x = 1\n", "def test_nothing():\n    pass\n"  # a run of nothing: the walls' own cost
CALLS = 1000  # calls across the wall in one run, for the cost of one call
ECHO = "def echo(x):\n    return x\n"
MANY_CALLS_TEST = f"def test_calls():\n    for i in range({CALLS}):\n        assert echo(i) == i\n"
STAGES = ("start", "load", "collect", "tests", "finish")  # of one run, in order; "other" is the rest of its time


@contextlib.contextmanager
def stage_clock():
    """Record each run's stages while in force: start and finish (the caller's two requests to the server) as the
    caller sees them, load, collect and tests as the run's test process timed them ("stages" in its records)."""
    record = collections.defaultdict(list)
    request, exchange = caller._Server.request, caller._exchange

    def timed_request(self, message, fds=()):
        begun = time.perf_counter()
        try:
            return request(self, message, fds)
        finally:
            record["start" if message.get("cmd") == "run" else "finish"].append(time.perf_counter() - begun)

    def timed_exchange(*args):
        events, timed_out = exchange(*args)
        for event in events:
            if event.get("event") == "stages":
                for stage in ("load", "collect", "tests"):
                    record[stage].append(float(event.get(stage, 0)))
                record["faults"].append(int(event.get("faults", 0)))
        return events, timed_out

    caller._Server.request, caller._exchange = timed_request, timed_exchange
    try:
        yield record
    finally:
        caller._Server.request, caller._exchange = request, exchange


def one_run(rounds: int, tests: str, gap: float, solution: str = REFERENCE_SOLUTION) -> dict:
    """Median seconds of one run of `tests`, `gap` seconds apart, the median of each stage, and the CPU the whole
    machine spent a run while it ran (its processes, the server's, the next run's being made ready; back to back,
    that is all a run costs)."""
    sandbox_round(tests, solution)
    times, cpu = [], 0.0
    with stage_clock() as record:
        for _ in range(rounds):
            begun = cpu_seconds()
            times.append(time_once(lambda: sandbox_round(tests, solution)))
            cpu += cpu_seconds() - begun
            time.sleep(gap)
    stages = {stage: statistics.median(record[stage]) for stage in STAGES if record[stage]}
    total = statistics.median(times)
    return {"total": total, "stages": {**stages, "other": max(0.0, total - sum(stages.values()))},
            "faults": statistics.median(record["faults"] or [0]), "cpu": cpu / rounds}


def print_one_run(rounds: int, tests: str) -> None:
    """The floor, then one run back to back and spaced, against it and stage by stage."""
    found = floor.measure()
    parts = ", ".join(f"{name} {seconds * 1000:.1f}" for name, seconds in found["steps"].items())
    print(f"floor (median of 50 each): {parts} = {found['floor'] * 1000:.1f} ms")
    for name, why in found["missing"].items():
        print(f"  (no {name} here: {why})")
    cores = os.cpu_count() or 1
    for label, gap in (("back to back", 0.0), ("0.3 s apart", 0.3)):
        m = one_run(rounds, tests, gap)
        stages = ", ".join(f"{stage} {seconds * 1000:.1f}" for stage, seconds in m["stages"].items())
        print(f"one run, {label}: {m['total'] * 1000:.1f} ms = {m['total'] / found['floor']:.1f}x the floor "
              f"(target: at most 2x); stages (medians, ms): {stages}; page faults in the test process: "
              f"{m['faults']:.0f}"
              + ("" if gap else f"; the machine's CPU a run: {m['cpu'] * 1000:.1f} ms, so on {cores} cores runs one "
                 f"after another can take no less than {m['cpu'] / cores * 1000:.1f} ms each"))
    nothing = one_run(rounds, EMPTY_TEST, 0.0, EMPTY_SOLUTION)
    print(f"a run of nothing, back to back (one empty test, a solution of one line): {nothing['total'] * 1000:.1f} ms, "
          f"{nothing['cpu'] * 1000:.1f} ms of the machine's CPU: what the walls' processes cost a run, whatever it "
          "tests")
    m = one_run(rounds, MANY_CALLS_TEST, 0.0, ECHO)
    per_call = (m["total"] - nothing["total"]) / CALLS
    print(f"a run of {CALLS:,} calls across the wall, back to back: {m['total'] * 1000:.1f} ms, "
          f"{m['cpu'] * 1000:.1f} ms of the machine's CPU; about {per_call * 1e6:.0f} us a call")


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


LEVELS = {  # name shown: (SPEC2CODE_ISOLATION, identity to run as; see tests/harness/sandbox/identities.py)
    "namespaces (root)": ("auto", None),
    "namespaces (user namespace)": ("auto", "normal user"),
    "user (Docker's default)": ("auto", "docker default"),
    "process": ("process", None),
}


def level_ratio(rounds: int, tests: str) -> dict:
    """harness.run against a fresh pytest process, interleaved, at the level SPEC2CODE_ISOLATION asks for here."""
    sandbox_round(tests)  # starts the warm server
    times = {"run": [], "pytest": []}
    with tempfile.TemporaryDirectory() as folder:
        pytest_process_round(folder, tests)
        for _ in range(rounds):
            times["run"].append(time_once(lambda: sandbox_round(tests)))
            times["pytest"].append(time_once(lambda: pytest_process_round(folder, tests)))
    return {"isolation": harness.sandbox.isolation_level(), "run": statistics.median(times["run"]),
            "pytest": statistics.median(times["pytest"]), "run_min": min(times["run"])}


def each_level(rounds: int) -> None:
    """One child per level, each measuring both ways itself, so each ratio is measured under one load."""
    sys.path.insert(0, ROOT)
    from tests.harness.sandbox import identities

    print(f"{'level':<30}{'in force':>12}{'run() ms':>10}{'pytest ms':>11}{'pytest/run':>12}")
    for name, (asked, identity) in LEVELS.items():
        argv = [sys.executable, identities.script("bench/run_speed.py"), "--one-level", "--rounds", str(rounds)]
        if identity and (identities.need_root() or not identities.python()):
            print(f"{name:<30}  skipped: {identities.need_root() or 'no Python every user may run'}")
            continue
        if identity:
            argv[0] = identities.python()
            argv = identities.as_normal_user(argv) if identity == "normal user" else identities.as_docker_default(argv)
        done = identities.run(argv, timeout=1800, env={"SPEC2CODE_ISOLATION": asked})
        if done.returncode:
            print(f"{name:<30}  failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
            continue
        m = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{name:<30}{m['isolation']:>12}{m['run'] * 1000:>10.1f}{m['pytest'] * 1000:>11.1f}"
              f"{m['pytest'] / m['run']:>11.1f}x")
    print("(target: run() at least 10x faster than a pytest process at every level, 25x at namespaces)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds of each way (default 30)")
    parser.add_argument("--memory-runs", type=int, default=1000, help="runs for the memory check (0 skips it)")
    parser.add_argument("--check", action="store_true", help="also time `spec2code check` on the reference agent")
    parser.add_argument("--levels", action="store_true", help="only the ratio at each isolation level")
    parser.add_argument("--one-level", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    tests = visible_tests()
    if args.one_level:
        print(json.dumps(level_ratio(args.rounds, tests)))
        return 0
    if args.levels:
        each_level(args.rounds)
        return 0
    sandbox_round(tests)  # the first run starts the warm server
    times = {"harness.run": [], "pytest process": [], "bare python -I -S": [], "fork + exit": []}
    with tempfile.TemporaryDirectory() as folder:
        pytest_process_round(folder, tests)
        for _ in range(args.rounds):  # interleaved, so load on the machine hits every way alike
            times["harness.run"].append(time_once(lambda: sandbox_round(tests)))
            times["pytest process"].append(time_once(lambda: pytest_process_round(folder, tests)))
            times["bare python -I -S"].append(time_once(bare_interpreter))
            times["fork + exit"].append(time_once(fork_only))

    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"isolation in force: {harness.sandbox.isolation_level()}   rounds: {args.rounds}   cores: {os.cpu_count()}"
          f"   load average: {os.getloadavg()[0]:.1f}")
    print_one_run(args.rounds, tests)
    print(f"{'way':<22}{'median ms':>11}{'min ms':>9}{'vs harness.run':>16}")
    for name, values in times.items():
        ratio = med[name] / med["harness.run"]
        print(f"{name:<22}{med[name] * 1000:>11.1f}{min(values) * 1000:>9.1f}{ratio:>15.2f}x")
    print(f"harness.run costs {med['harness.run'] / med['fork + exit']:.1f} forks, "
          f"{med['harness.run'] / med['bare python -I -S']:.1f} bare interpreter starts; a pytest process costs "
          f"{med['pytest process'] / med['harness.run']:.1f} runs (target: at least 25).\n")
    each_level(args.rounds)

    if args.memory_runs:
        sandbox_round(tests)
        before = rss_mib()
        for _ in range(args.memory_runs):
            sandbox_round(tests)
        after = rss_mib()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\nparent memory over {args.memory_runs} runs: {before:.1f} MiB -> {after:.1f} MiB "
              f"({after - before:+.1f} MiB), peak {peak:.1f} MiB")

    if args.check:
        agent = os.path.join(ROOT, "solutions", "agent.py")
        spec2code = [sys.executable, "-m", "lab.commands", "check", "--agent", agent]
        check_times = [time_once(lambda: subprocess.run(spec2code, cwd=ROOT, capture_output=True)) for _ in range(5)]
        print(f"\nspec2code check on the reference: median {statistics.median(check_times):.2f} s over 5 (target: under 3 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
