"""Re-make humaneval_recorded.py: `python -m harness.tasks.humaneval_record` (a maintainer's tool, a few minutes)."""

# For each task: the docstring's examples that disagree with the canonical solution (dropped), and the mutants kept
# as planted bugs. A mutant is tried first in a forked child of this process (the lab's own data, each call cut
# off after a second, so a mutant that loops is left out), then every one kept is confirmed through harness.run:
# rejected by the held-out tests in the sandbox, as a planted bug is judged everywhere else.

from __future__ import annotations

import contextlib
import copy
import multiprocessing
import os
import resource
import signal
import sys
import time
from pathlib import Path

from .humaneval import COUNT, raw
from .humaneval_mutants import mutants
from .humaneval_plus import agrees as plus_agrees
from .humaneval_plus import inputs, plus_tests
from .humaneval_tests import examples, held_out_tests, visible_tests

MOST_BUGS = 5  # planted bugs kept per task: each costs a run whenever a test suite is scored against the bank
CALL_SECONDS = 1.0  # a mutant's check or example that takes longer is taken to loop
PLUS_SECONDS = 0.02  # CPU the canonical solution may take on a mutated input, for it to be kept
TASK_SECONDS = 120  # a task's child that takes longer is killed, and its mutants left out
OUT = Path(__file__).with_name("humaneval_recorded.py")


class _Late(BaseException):
    pass


def _late(*_):
    raise _Late


def _timed(call):
    """("ok", value), ("raises", name) or ("loops", None): what a call of the lab's own data does in a second."""
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        return ("ok", call())
    except _Late:
        return ("loops", None)
    except BaseException as error:  # noqa: BLE001 - a mutant may raise anything, SystemExit too
        return ("raises", type(error).__name__)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _try(problem: dict) -> dict:
    """In a child: which examples agree with the canonical solution, and what each mutant does."""
    signal.signal(signal.SIGALRM, _late)
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    prompt, function = problem["prompt"], problem["entry_point"]
    reference = prompt + problem["canonical_solution"]
    found = examples(prompt, function)

    def space(code):
        names: dict = {}
        exec(code, names)  # the lab's own data: HumanEval's solution, or a one-place change of it
        return names

    def agrees(names, example):
        return _timed(lambda: eval(example.expression, dict(names)) == eval(example.expected))

    canonical = space(reference)
    dropped = [i for i, e in enumerate(found) if agrees(canonical, e) != ("ok", True)]
    kept = [e for i, e in enumerate(found) if i not in dropped]
    plus, wanted = _plus(problem, canonical[function])
    tried, survivors, caught = [], 0, 0
    for mutant in mutants(reference, prompt.count("\n") + 1):
        names = _timed(lambda: space(mutant.code + "\n" + problem["test"]))
        if names[0] != "ok":
            continue
        checked = _timed(lambda: names[1]["check"](names[1][function]))
        if checked[0] == "loops":
            continue
        if checked[0] == "ok":  # the original tests miss it: do the stronger ones catch it?
            answers = [_timed(lambda: names[1][function](*copy.deepcopy(args))) for args in plus]
            if any(a[0] == "loops" for a in answers):
                continue
            survivors += 1
            if all(a[0] == "ok" and plus_agrees(a[1], want) for a, want in zip(answers, wanted)):
                continue
            caught += 1
        outcomes = [agrees(names[1], e) for e in kept]
        if any(o[0] == "loops" for o in outcomes):
            continue
        fails = [f"test_example_{n}" for n, o in enumerate(outcomes, 1) if o != ("ok", True)]
        tried.append((mutant.site, mutant.name, fails))
    every = inputs(problem["task_id"], problem["test"])
    return {"dropped": dropped, "tried": tried, "plus": [i for i, args in enumerate(every) if args not in plus],
            "survivors": survivors, "caught": caught}


def _plus(problem: dict, solution) -> tuple[list, list]:
    """The mutated inputs the canonical solution answers at once and alike twice, in plain data, and its answers."""
    kept, wanted = [], []
    for args in inputs(problem["task_id"], problem["test"]):
        started = time.process_time()
        first = _timed(lambda: solution(*copy.deepcopy(args)))
        if first[0] != "ok" or time.process_time() - started > PLUS_SECONDS or not _plain(first[1]):
            continue
        again = _timed(lambda: solution(*copy.deepcopy(args)))
        if again[0] == "ok" and plus_agrees(again[1], first[1]) and plus_agrees(first[1], again[1]):
            kept.append(args)
            wanted.append(first[1])
    return kept, wanted


def _plain(value, depth: int = 0) -> bool:
    """Whether a value crosses the sandbox's wall as it is (wire.py's plain data)."""
    if depth > 20:
        return False
    if value is None or isinstance(value, (bool, int, float, str, bytes, complex)):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _in_child(problem: dict) -> dict | None:
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)

    def work():
        with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
            child.send(_try(problem))

    process = context.Process(target=work)
    process.start()
    got = parent.recv() if parent.poll(TASK_SECONDS) else None
    process.join(1)
    if process.is_alive():
        process.kill()
        process.join()
    return got


def _order(tried: list) -> tuple[list, list]:
    """The mutants in the order they are tried as bugs (one of each kind in turn, so the bugs differ), and as the
    first attempt (fewest visible tests failed but some, an operator, constant or comparison before a deletion)."""
    kinds: dict[str, list] = {}
    for t in tried:
        kinds.setdefault(t[1].split("_", 2)[2].split("_again")[0], []).append(t)
    turns = [t for n in range(max(map(len, kinds.values()), default=0)) for ts in kinds.values() if n < len(ts)
             for t in [ts[n]]]
    firsts = sorted((t for t in tried if t[2]), key=lambda t: (t[1].endswith("_deleted"), len(t[2]), t[0]))
    return turns, firsts


def record(problem: dict, run) -> dict:
    """One task's line: its dropped examples, its planted bugs (confirmed by `run`), its first attempt."""
    tried = _in_child(problem)
    if tried is None:
        return {"dropped": (), "bugs": (), "first": None, "fails": (), "missed": (), "plus_dropped": (), "survivors": 0,
                "caught": 0}
    prompt, function = problem["prompt"], problem["entry_point"]
    holdout, _ = held_out_tests(prompt, problem["test"], function)
    every = inputs(problem["task_id"], problem["test"])
    holdout += plus_tests(prompt + problem["canonical_solution"], function,
                          [args for i, args in enumerate(every) if i not in tried["plus"]])
    kept = [e for i, e in enumerate(examples(prompt, function)) if i not in tried["dropped"]]
    visible = visible_tests(prompt, kept)
    code = {m.site: m.code for m in mutants(prompt + problem["canonical_solution"], prompt.count("\n") + 1)}
    red: dict[int, bool] = {}

    def rejected(site):
        if site not in red:
            red[site] = bool(run(code[site], holdout)["failed"])
        return red[site]

    turns, firsts = _order(tried["tried"])
    first = None
    for t in firsts[:MOST_BUGS]:
        if rejected(t[0]):
            fails = run(code[t[0]], visible)["failed"]
            if fails:
                first = (t[0], tuple(fails))
                break
    bugs = [first[0]] if first else []
    for t in turns:
        if len(bugs) >= MOST_BUGS:
            break
        if t[0] not in bugs and rejected(t[0]):
            bugs.append(t[0])
    missed = tuple(t[0] for t in tried["tried"] if t[0] in bugs and not t[2])
    return {"dropped": tuple(tried["dropped"]), "bugs": tuple(sorted(bugs)),
            "first": first[0] if first else None, "fails": first[1] if first else (), "missed": missed,
            "plus_dropped": tuple(tried["plus"]), "survivors": tried["survivors"], "caught": tried["caught"]}


def main() -> int:
    from ..sandbox import run

    problems = raw()
    lines = []
    for problem in problems:
        line = record(problem, run)
        lines.append(f"    {problem['task_id']!r}: {line!r},")
        print(problem["task_id"], len(line["bugs"]), "bugs", file=sys.stderr)
    assert len(lines) == COUNT
    OUT.write_text('"""What the lab decided about each HumanEval task: made by humaneval_record.py, never by hand."""'
                   "\n\n"
                   "# dropped: examples (by their order in the docstring) that disagree with the canonical solution;\n"
                   "# bugs: mutants kept as planted bugs (by site); first: the offline model's first attempt;\n"
                   "# fails: the visible tests it fails; missed: planted bugs that no visible test catches;\n"
                   "# plus_dropped: mutated inputs (humaneval_plus.py) the canonical solution does not answer at "
                   "once;\n"
                   "# survivors: mutants the original check passes (looping ones left out);\n"
                   "# caught: of those, the ones the mutated inputs catch.\n"
                   "RECORDED = {\n" + "\n".join(lines) + "\n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
