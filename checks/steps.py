"""The five steps of the lab: number, function, title, what each needs first, and the one rule for "not started"."""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

from harness import syntax

CALL_LIMIT = 3.0  # seconds one call of a learner's function may take before it is stopped, unless its step says more


@dataclass(frozen=True)
class Step:
    """One graded step: the function the learner writes and the steps that must pass before it can be checked."""

    number: int
    function: str
    title: str
    needs: tuple[int, ...] = ()
    time_limit: float = CALL_LIMIT  # seconds one call of the step's function may take, in a check or a try
    hang_hint: str = ""  # what to look for when a call of the function is stopped for taking too long
    parameters: tuple[str, ...] = ()  # the names of the stub's parameters, in order: how the lab calls it
    without_model: str = ""  # for a step given no model: the hint when its function asks one (what it does instead)

    @property
    def module(self) -> str:
        """The module that defines this step's checks (pytest collects it too: see checks/pytest_plugin.py)."""
        return f"checks.step{self.number}_{self.function}"

    @property
    def label(self) -> str:
        return f"step {self.number} ({self.function})"


STEPS = (
    Step(1, "extract_code", "find the code in a model's reply", parameters=("reply",),
         without_model="extract_code only reads the reply it is given: it asks no model",
         hang_hint="look for a loop in extract_code that never ends, e.g. a while loop whose condition never changes"),
    Step(2, "write_tests", "ask the model for tests", needs=(1,), parameters=("spec", "ask"),
         hang_hint="write_tests asks once and returns: look for a loop around ask, or input() waiting for a reply"),
    Step(3, "write_solution", "ask the model for a solution", needs=(1,), parameters=("spec", "ask", "feedback"),
         hang_hint="write_solution asks once and returns: look for a loop around ask, or input() waiting for a reply"),
    Step(4, "solve", "loop until the tests pass", needs=(1, 2, 3), time_limit=10.0,
         parameters=("spec", "ask", "max_iters"),
         hang_hint="does the loop end after max_iters attempts (for _ in range(max_iters)), and stop when a run passes?"),
    # Step 5 only runs the held-out tests, so it can be graded on its own.
    Step(5, "holdout_check", "check against held-out tests", time_limit=10.0, parameters=("solution_src",),
         hang_hint="holdout_check needs one call of harness.run: look for a loop around it",
         without_model="step 5 runs the held-out tests (harness.HOLDOUT_TESTS), not new tests from the model: "
                       "harness.run(solution_src, harness.HOLDOUT_TESTS)"),
)
BY_NUMBER = {step.number: step for step in STEPS}
BY_FUNCTION = {step.function: step for step in STEPS}

def try_time_limit(function: str) -> float:
    """Seconds one try of `function` may take (the try cells, `spec2code try`, lab/try_it.py): the step's own limit,
    the one its check gives it, so a try says a call hangs as soon as the check would. (The time a model takes to
    answer, or a run, is not counted: the agent runner adds it back.)"""
    step = BY_FUNCTION.get(function)
    return step.time_limit if step else CALL_LIMIT


def step(key) -> Step:
    """The step for a number (1-5, int or str) or a function name ('solve'); LookupError if there is none."""
    text = str(key).strip()
    for candidate in STEPS:
        if text in (str(candidate.number), candidate.function):
            return candidate
    names = ", ".join(f"{s.number} or {s.function}" for s in STEPS)
    raise LookupError(f"There is no step {key!r}: use one of {names}.")


def is_stub(source: str, function: str) -> bool:
    """The lab's one rule for "not started", read from the source: the body of `function` (after the docstring) is
    only `raise NotImplementedError(...)`. A function defined some other way (imported, assigned) is started.

    When a started function still raises NotImplementedError from its own body at run time, the agent runner says
    so (`NotStarted`); the two agree on the stubs the lab ships.
    """
    return stub_line(source, function) is not None


def stub_line(source: str, function: str) -> int | None:
    """The line of the stub's `raise NotImplementedError(...)` when `function` is still the stub (see is_stub)."""
    return _stub_lines(source).get(function)


@functools.lru_cache(maxsize=16)
def _stub_lines(source: str) -> dict[str, int | None]:
    """For each function `source` defines at its top (the first definition of a name counts), the line of its stub's
    raise, or None when it is started. Parsed once a source: grading a submission asks for each step, and more."""
    try:
        tree = syntax.parse(source)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, int | None] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in found:
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            stub = (len(body) == 1 and isinstance(body[0], ast.Raise)
                    and "NotImplementedError" in ast.unparse(body[0].exc or ast.Constant(None)))
            found[node.name] = body[0].lineno if stub else None
    return found


def first_not_started(source: str) -> Step | None:
    """The first of the five steps whose function is still a stub, or None when all are started."""
    return next((s for s in STEPS if is_stub(source, s.function)), None)
