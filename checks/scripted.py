"""The checks' tools for putting an agent in a known situation: a scripted model, and the grader's own test runs.

A check hands `ScriptedAsk([...])` to the learner's function as its `ask`, then judges the prompts it recorded;
`run_tests` runs code in the sandbox for the check itself (the same code and tests always give the same result).
"""

from __future__ import annotations

import copy
import threading
from concurrent.futures import Future


class ScriptedAsk:
    """A stand-in model for one check: answers each prompt from a script and remembers every call.

    `replies` is a list (the last one repeats), or a function prompt -> reply. Calls the agent makes through the
    `ask` it was given are `given`; calls to `harness.ask` itself are `default` (answered the same way).
    `runs`, if given, is a function (solution, tests) -> run result that answers the agent's calls to
    `harness.run` in this check instead of the sandbox, to put the agent in a case the sandbox rarely makes.
    """

    LIMIT = 50  # calls; after that the agent is told it is looping

    def __init__(self, replies, *, runs=None):
        self._replies = replies
        self.runs = runs
        self.calls: list[tuple[str, object]] = []  # (via, prompt) in order

    def __call__(self, prompt, via: str = "given") -> str:
        self.calls.append((via, prompt))
        if len(self.calls) > self.LIMIT:
            raise RuntimeError(f"ask was called more than {self.LIMIT} times in one check: is it in a loop?")
        if callable(self._replies):
            return self._replies(prompt)
        return self._replies[min(len(self.calls), len(self._replies)) - 1]

    @property
    def given(self) -> list:
        return [prompt for via, prompt in self.calls if via == "given"]

    @property
    def default(self) -> list:
        return [prompt for via, prompt in self.calls if via == "default"]


_runs: dict = {}  # (solution, tests, timeout) -> Future of the run's result
_runs_lock = threading.Lock()
_RUNS_KEPT = 512


def run_tests(solution_src: str, test_src: str, timeout=None) -> dict:
    """`harness.run` in the grader's process, remembered: the same code and tests always give the same result.

    Different runs may go on at once (the sandbox allows it); the same run asked for twice is made once.
    """
    import harness

    key = (solution_src, test_src, timeout)
    with _runs_lock:
        future, mine = _runs.get(key), False
        if future is None:
            future, mine = Future(), True
            if len(_runs) >= _RUNS_KEPT:
                _runs.pop(next(iter(_runs)))
            _runs[key] = future
    if mine:
        try:
            options = {} if timeout is None else {"timeout": timeout}
            future.set_result(harness.run(solution_src, test_src, **options))
        except BaseException as exc:
            with _runs_lock:
                _runs.pop(key, None)
            future.set_exception(exc)
    return copy.deepcopy(future.result())
