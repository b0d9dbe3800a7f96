"""Benchmark: `spec2code grade --jobs 2` on a generated class of distinct submissions, at every isolation level.

Run on demand (shared machines are noisy: compare the levels, measured one after the other in one run). Each level
grades in a process of its own, as root, as a normal user and as root with Docker's default walls (those two need
root, see tests/harness/sandbox/identities.py), and at the process level. The class is reference-like agents (the
reference and the correct fixtures), each made distinct by a line of its own. Then, at the level this machine
gives, a class as a real one comes (`--mixed`: reference variants, wrong agents, stubs, syntax errors and a few
that hang), and the CPU time Gradescope's path costs for one reference submission (run_autograder, in a Gradescope
image faked here, and its command from this checkout):

    .venv/bin/python bench/class_grading.py [--size 200] [--jobs 2] [--mixed 1000]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.machine import cpu_seconds  # noqa: E402
from bench.run_speed import LEVELS  # noqa: E402  the same four levels, run the same way

BEFORE = 13.0  # s for 200 submissions, --jobs 2, on this 2-core machine before the grader was walled in (issue 10)
MIXED_TARGET = 120.0  # s for 1,000 mixed submissions with --jobs 2 on a quiet 2-core machine
GRADESCOPE_TARGET = 1.0  # CPU-s of Gradescope's path for one reference submission
# Of a mixed class, per 1,000: wrong agents, stubs, syntax errors and hangs; the rest are reference variants.
MIX = {"wrong": 400, "stubs": 100, "syntax error": 95, "hangs": 5}


def make_class(folder: str, size: int) -> None:
    """`size` reference-like agents (the reference and the correct fixtures), each made distinct (see write_class)."""
    from tests.helpers import self_contained
    from tests.paths import AGENTS, REFERENCE_AGENT

    sources = [REFERENCE_AGENT.read_text(encoding="utf-8")]
    with tempfile.TemporaryDirectory() as scratch:
        for fixture in sorted((AGENTS / "correct").glob("*.py")):
            sources.append(self_contained(fixture, scratch).read_text(encoding="utf-8"))
    write_class(folder, [sources[n % len(sources)] for n in range(size)])


def mixed_sources(size: int, scratch: str) -> list[tuple[str, str]]:
    """(kind, source) for a class of `size` as one comes: MIX per 1,000, the rest reference variants."""
    from lab.stubs import render
    from tests.helpers import self_contained
    from tests.paths import AGENTS, REFERENCE_AGENT

    def pool(folder: str, hangs: bool) -> list[str]:
        return [self_contained(path, scratch).read_text(encoding="utf-8") for path in sorted((AGENTS / folder).glob("*.py"))
                if ("cpu_loop" in path.name or "hangs" in path.name) == hangs]

    reference = REFERENCE_AGENT.read_text(encoding="utf-8")
    pools = {"reference": [reference, *pool("correct", False)], "wrong": pool("wrong", False), "stubs": [render()],
             "syntax error": [reference.replace("def extract_code(", "def extract_code(:", 1)],
             "hangs": pool("wrong", True) + pool("special", True)}
    counts = {kind: size * per_1000 // 1000 for kind, per_1000 in MIX.items()}
    counts["reference"] = size - sum(counts.values())
    return [(kind, pools[kind][n % len(pools[kind])]) for kind, count in counts.items() for n in range(count)]


def write_class(folder: str, sources: list[str]) -> None:
    """One folder of one agent.py per source, each made distinct by a line of its own, in a folder only the user that
    grades them may enter (as root, the normal user of tests/harness/sandbox/identities.py, which root enters too): at
    the `user` level the grader refuses a class every user can read. The files stay readable: at `namespaces` each
    child reads its own."""
    from tests.harness.sandbox import identities

    for n, source in enumerate(sources):
        student = os.path.join(folder, f"s{n:04d}")
        os.makedirs(student)
        with open(os.path.join(student, "agent.py"), "w", encoding="utf-8") as f:
            f.write(f"# submission {n}\n{source}")
    for path, dirs, files in os.walk(folder):
        os.chmod(path, 0o755)
        for name in files:
            os.chmod(os.path.join(path, name), 0o644)
    os.chown(folder, os.getuid() if identities.need_root() else identities.normal_user(), -1)
    os.chmod(folder, 0o700)


def mixed_class(size: int, jobs: int) -> None:
    """Grade a class as one comes, in a process of its own at the level this machine gives, and say how long it took
    (and its CPU time, that process and all it started) against MIXED_TARGET."""
    folder = tempfile.mkdtemp(prefix="spec2code-bench-mixed-")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            kinds = mixed_sources(size, scratch)
        write_class(folder, [source for _, source in kinds])
        before = cpu_seconds()
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--one-level", folder, "--jobs", str(jobs)],
                              capture_output=True, text=True, cwd=ROOT)
        spent = cpu_seconds() - before
        if done.returncode:
            print(f"\nthe mixed class failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
            return
        m = json.loads(done.stdout.strip().splitlines()[-1])
        mix = ", ".join(f"{sum(k == kind for k, _ in kinds)} {kind}" for kind in ("reference", *MIX))
        print(f"\na mixed class of {m['rows']} ({mix}), --jobs {jobs}, {','.join(m['isolation'])}: {m['seconds']:.1f} s "
              f"({m['seconds'] / m['rows'] * 1000:.0f} ms a submission, {spent / m['rows']:.2f} CPU-s of the machine "
              f"each), mean score {m['mean_score']:.2f}, load {os.getloadavg()[0]:.1f}; target: under {MIXED_TARGET * size / 1000:.0f} s "
              "on a quiet machine")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def gradescope_path(rounds: int = 5) -> None:
    """CPU seconds of one reference submission's grading on Gradescope's path: run_autograder itself, in a Gradescope
    image faked here (tests/gradescope_image.py: the lab installed from its grading-only wheel, as setup.sh installs
    it), taking turns with the command it runs started from this checkout, each in fresh processes."""
    from pathlib import Path

    from tests import gradescope_image
    from tests.harness.sandbox import identities
    from tests.paths import REFERENCE_AGENT

    base = Path(identities.shared_folder("spec2code-bench-gradescope-"))
    base.chmod(0o755)
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # what building the zip says, for people
            root, env, _ = gradescope_image.install(base)
        shutil.copy(REFERENCE_AGENT, root / "submission" / "agent.py")
        results = root / "results" / "results.json"
        ways = {
            "run_autograder": lambda: subprocess.run([str(root / "run_autograder")], cwd=root, env=env,
                                                     capture_output=True, check=True),
            "checkout": lambda: subprocess.run([sys.executable, "-I", "-m", "lab.commands", "grade", "--format",
                                                "gradescope", "--submission-dir", str(root / "submission"),
                                                "--results", str(base / "checkout.json")],
                                               cwd=ROOT, capture_output=True, check=True),
        }
        spent, scores = {way: [] for way in ways}, []
        for _ in range(rounds):
            for way, grade in ways.items():
                before = cpu_seconds()
                grade()
                spent[way].append(cpu_seconds() - before)
            graded = json.loads(results.read_text(encoding="utf-8"))  # run_autograder writes a zero when grading fails
            scores.append((graded["score"], sum(test["max_score"] for test in graded["tests"])))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if any(score != full for score, full in scores):
        print(f"\nGradescope's path: the reference did not earn full marks each time in a Gradescope image faked "
              f"here ({', '.join(f'{score} of {full}' for score, full in scores)}): {graded['output']}")
        return
    real, checkout = (statistics.median(spent[way]) for way in ways)
    print(f"Gradescope's path, one reference submission (medians of {rounds}, taking turns; full marks each time, "
          f"{graded['extra_data']['isolation']}, load {os.getloadavg()[0]:.1f}): run_autograder in a Gradescope image "
          f"faked here {real:.2f} CPU-s of the machine, its command from this checkout {checkout:.2f}; target: at "
          f"most {GRADESCOPE_TARGET:.0f} CPU-s for run_autograder")


def one_level(folder: str, jobs: int) -> dict:
    """Grade the class here, at the level SPEC2CODE_ISOLATION allows; the figures as a dict."""
    from lab.commands import grade

    with tempfile.TemporaryDirectory() as out:
        report = os.path.join(out, "grades.json")
        start = time.perf_counter()
        assert grade.main([folder, "--format", "json", "--out", report, "--jobs", str(jobs)]) == 0
        seconds = time.perf_counter() - start
        with open(report, encoding="utf-8") as f:
            rows = json.load(f)
    return {"seconds": seconds, "rows": len(rows), "isolation": sorted({r["isolation"] for r in rows}),
            "median": statistics.median(r["seconds"] for r in rows),
            "mean_score": statistics.mean(r["score"] for r in rows)}


def each_level(size: int, jobs: int) -> None:
    from tests.harness.sandbox import identities

    folder = tempfile.mkdtemp(prefix="spec2code-bench-class-")
    try:
        make_class(folder, size)
        print(f"grading {size} distinct submissions with --jobs {jobs}, one level after the other")
        print(f"{'level':<30}{'in force':>12}{'total s':>9}{'s/sub':>8}{'median s':>10}{'score':>7}{'vs before':>11}")
        for name, (asked, identity) in LEVELS.items():
            script = identities.script("bench/class_grading.py")
            argv = [sys.executable, script, "--one-level", folder, "--jobs", str(jobs)]
            if identity and (identities.need_root() or not identities.python()):
                print(f"{name:<30}  skipped: {identities.need_root() or 'no Python every user may run'}")
                continue
            if identity:
                argv[0] = identities.python()
                wrap = identities.as_normal_user if identity == "normal user" else identities.as_docker_default
                argv = wrap(argv)
            # At the user level the grader refuses while every user can read the reference: made private meanwhile.
            hidden = identities.reference_made(0o700) if identity == "docker default" else contextlib.nullcontext()
            with hidden:
                done = identities.run(argv, timeout=3600, env={"SPEC2CODE_ISOLATION": asked})
            if done.returncode:
                print(f"{name:<30}  failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
                continue
            m = json.loads(done.stdout.strip().splitlines()[-1])
            per_200 = m["seconds"] * 200 / m["rows"]
            print(f"{name:<30}{','.join(m['isolation']):>12}{m['seconds']:>9.1f}{m['seconds'] / m['rows']:>8.3f}"
                  f"{m['median']:>10.2f}{m['mean_score']:>7.2f}{per_200 / BEFORE:>10.2f}x")
        print(f"(before: {BEFORE:.0f} s for 200 with --jobs 2, unwalled; target: within 2x of it at the strongest "
              "level)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mixed", type=int, default=1000, help="size of the mixed class (0 skips it)")
    parser.add_argument("--one-level", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one_level:
        print(json.dumps(one_level(args.one_level, args.jobs)))
    else:
        each_level(args.size, args.jobs)
        if args.mixed:
            mixed_class(args.mixed, args.jobs)
        gradescope_path()
    return 0


if __name__ == "__main__":
    sys.exit(main())
