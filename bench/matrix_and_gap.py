"""Benchmark: the README's 8 x 12 pass matrix on leap year, and `spec2code gap --tasks all`, timed side by side.

Run on demand (shared machines are noisy: run it before and after a change, in turns). The matrix is 96 runs of one
test each through `harness.matrix` on a warm sandbox; the gap runs the reference agent on the lab's six tasks with
the gaming model, in a process of its own, and is timed with the CPU the whole machine spent on it (its agents and
sandbox outlive their parent):

    .venv/bin/python bench/matrix_and_gap.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import harness  # noqa: E402
from bench.machine import cpu_seconds  # noqa: E402
from tests.helpers import leap_year_grid  # noqa: E402


def matrix_seconds() -> float:
    """One 8 x 12 matrix on the warm sandbox; raises if the reference is not green or a wrong solution is."""
    solutions, tests = leap_year_grid()
    grid = harness.matrix(solutions, tests)
    reference, always_false = grid["passed"][0], grid["passed"][-1]
    if not all(reference) or all(always_false):
        raise SystemExit(f"the matrix is wrong: reference {reference}, always False {always_false}")
    return grid["seconds"]


def gap_seconds(chart: str) -> tuple[float, float]:
    """(wall, CPU of the machine) of `spec2code gap --tasks all --model gaming` in a fresh process."""
    before_cpu, started = cpu_seconds(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "lab.commands", "gap", "--tasks", "all", "--model", "gaming",
                           "--chart", chart], cwd=ROOT, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - started, cpu_seconds() - before_cpu
    if done.returncode or "overall" not in done.stdout:
        raise SystemExit(f"spec2code gap failed: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    return wall, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each, taking turns (default 3)")
    args = parser.parse_args(argv)
    harness.run("def f(): return 1", "def test_f(): assert f() == 1")  # the warm server, started outside the timings
    matrix, gap = [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            matrix.append(matrix_seconds())
            gap.append(gap_seconds(os.path.join(folder, "gap.png")))
    m = statistics.median(matrix)
    wall, cpu = statistics.median(w for w, _ in gap), statistics.median(c for _, c in gap)
    print(f"matrix 8 x 12 on leap year (96 runs, {harness.sandbox.isolation_level()}): {m:.2f} s, "
          f"{m / 96 * 1000:.1f} ms a run (median of {args.rounds}; {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f})")
    print(f"spec2code gap --tasks all --model gaming: {wall:.2f} s, {cpu:.2f} CPU-s of the machine (median of "
          f"{args.rounds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
