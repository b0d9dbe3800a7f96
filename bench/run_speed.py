"""Benchmark: harness.run against a fresh pytest process per round, a bare interpreter and a fork, side by side.

Run on demand (not part of the test suite; shared machines are noisy, so only ratios measured in one run
mean anything):

    .venv/bin/python bench/run_speed.py [--rounds 30] [--memory-runs 1000] [--check]
"""

from __future__ import annotations

import argparse
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


def sandbox_round(tests: str) -> None:
    result = harness.run(REFERENCE_SOLUTION, tests)
    assert result["error"] is None and not result["failed"] and result["passed"] > 0, result


def process_isolation_round(tests: str) -> None:
    """harness.run with namespaces turned off, on a second warm server of its own."""
    global _PROCESS_SERVER
    saved, os.environ["SPEC2CODE_ISOLATION"] = caller._SERVER, "process"
    caller._SERVER = _PROCESS_SERVER = _PROCESS_SERVER or caller._Server()
    try:
        sandbox_round(tests)
    finally:
        caller._SERVER = saved
        del os.environ["SPEC2CODE_ISOLATION"]


_PROCESS_SERVER = None


def bare_interpreter() -> None:
    subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True)


def fork_only() -> None:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds of each way (default 30)")
    parser.add_argument("--memory-runs", type=int, default=1000, help="runs for the memory check (0 skips it)")
    parser.add_argument("--check", action="store_true", help="also time `spec2code check` on the reference agent")
    args = parser.parse_args(argv)

    tests = visible_tests()
    sandbox_round(tests)  # the first run starts the warm server; it is reported separately below
    times = {"harness.run": [], "run, process level": [], "pytest process": [], "bare python -I -S": [],
             "fork + exit": []}
    process_isolation_round(tests)
    with tempfile.TemporaryDirectory() as folder:
        pytest_process_round(folder, tests)
        for _ in range(args.rounds):  # interleaved, so load on the machine hits every way alike
            times["harness.run"].append(time_once(lambda: sandbox_round(tests)))
            times["run, process level"].append(time_once(lambda: process_isolation_round(tests)))
            times["pytest process"].append(time_once(lambda: pytest_process_round(folder, tests)))
            times["bare python -I -S"].append(time_once(bare_interpreter))
            times["fork + exit"].append(time_once(fork_only))

    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"isolation in force: {harness.sandbox.isolation_level()}   rounds: {args.rounds}   cores: {os.cpu_count()}")
    print(f"{'way':<22}{'median ms':>11}{'min ms':>9}{'vs harness.run':>16}")
    for name, values in times.items():
        ratio = med[name] / med["harness.run"]
        print(f"{name:<22}{med[name] * 1000:>11.1f}{min(values) * 1000:>9.1f}{ratio:>15.2f}x")
    speedup = med["pytest process"] / med["harness.run"]
    print(f"\nharness.run is {speedup:.1f}x faster than a fresh pytest process per round (target: at least 10x).")
    print(f"With namespaces off (the level where none can be had) it is "
          f"{med['pytest process'] / med['run, process level']:.1f}x; namespaces cost "
          f"{(med['harness.run'] - med['run, process level']) * 1000:+.1f} ms a run.")
    print(f"harness.run costs {med['harness.run'] / med['fork + exit']:.1f} forks, "
          f"{med['harness.run'] / med['bare python -I -S']:.1f} bare interpreter starts.")

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
