"""The checks' tools for putting an agent in a known situation: a scripted model, and the grader's own test runs.

A check hands `ScriptedAsk([...])` to the learner's function as its `ask`, then judges the prompts it recorded;
`run_tests` runs code in the sandbox for the check itself; `serve_run` answers the agent's own runs.
"""

from __future__ import annotations

import copy
import hashlib
import threading
from concurrent.futures import Future

from harness import text
from harness.model.reading import MAX_READ

from .runner.parent import MAX_ASKS


class NotAString:
    """What is kept of a prompt that is not a string: its type's name and the start of its repr. (Kept whole, the 50
    prompts of 16 MB an agent may send in one call held gigabytes in the grader.)"""

    SHOWN = 2_000  # characters of its repr kept

    def __init__(self, prompt):
        self.type_name = type(prompt).__name__
        self._shown = text.cut(repr(prompt), self.SHOWN)

    def __repr__(self) -> str:
        return self._shown


class ScriptedAsk:
    """A stand-in model for one check: answers each prompt from a script and remembers every call.

    `replies` is a list (the last one repeats), or a function prompt -> reply. Calls the agent makes through the
    `ask` it was given are `given`; calls to `harness.ask` itself are `default` (answered the same way).
    `runs`, if given, is a function (solution, tests) -> run result that answers the agent's calls to
    `harness.run` in this check instead of the sandbox, to put the agent in a case the sandbox rarely makes.
    It answers MAX_ASKS calls (then the agent is told it is looping) and refuses a prompt longer than the offline
    model reads (MAX_READ), as a real model's context would.
    """

    reads = MAX_READ  # the longest prompt it answers: the agent's process refuses a longer one before sending it

    def __init__(self, replies, *, runs=None):
        self._replies = replies
        self.runs = runs
        self.calls: list[tuple[str, object]] = []  # (via, prompt) in order

    def __call__(self, prompt, via: str = "given") -> str:
        kept = NotAString(prompt) if not isinstance(prompt, str) else prompt if len(prompt) <= MAX_READ else ""
        self._count(via, kept)
        if isinstance(prompt, str) and len(prompt) > MAX_READ:
            self._refuse(len(prompt))
        if callable(self._replies):
            return self._replies(prompt)
        return self._replies[min(len(self.calls), len(self._replies)) - 1]

    def too_long(self, length: int, via: str = "given") -> None:
        """A prompt of `length` characters that the agent's process refused before sending it (a call that sent
        megabytes could run out of its time on a busy machine): a call like any other, refused the same way."""
        if isinstance(length, bool) or not isinstance(length, int) or length <= MAX_READ:
            raise RuntimeError("the agent's process said a prompt was too long, and it was not")
        self._count(via, "")
        self._refuse(length)

    def _count(self, via: str, kept) -> None:
        self.calls.append((via, kept))
        if len(self.calls) > MAX_ASKS:
            raise RuntimeError(f"ask was called more than {MAX_ASKS} times in one check: is it in a loop?")

    @staticmethod
    def _refuse(length: int) -> None:
        raise RuntimeError(f"the prompt is {length} characters long; the model reads at most {MAX_READ}")

    @property
    def given(self) -> list:
        return [prompt for via, prompt in self.calls if via == "given"]

    @property
    def default(self) -> list:
        return [prompt for via, prompt in self.calls if via == "default"]


class _Runs:
    """harness.run remembered: the same code and tests asked twice (at once, or later) are run once. Only clean
    results are kept: a run that ended in an error (a crash, a timeout, a sandbox that could not start) is made
    again the next time it is asked for, so nothing that went wrong once is served to anyone else. Runs are known by
    a hash of their sources (not the sources: 28 runs of 16 MB each once held 1.9 GB), and at most KEPT of them, of
    KEPT_BYTES of results in all, are remembered."""

    KEPT = 512  # results remembered
    KEPT_BYTES = 64 << 20  # characters of the results remembered, in all

    def __init__(self, reads=None):
        self._runs: dict = {}  # hash of (solution, tests, timeout) -> Future of the run's result
        self._sizes: dict = {}  # hash -> characters of its result
        self._lock = threading.Lock()
        self._reads = reads  # another memory whose finished clean runs this one hands out too, never adding to it

    @staticmethod
    def _key(solution_src: str, test_src: str, timeout) -> bytes:
        digest = hashlib.sha256(f"{len(solution_src)}:{len(test_src)}:{timeout!r}:".encode())
        for source in (solution_src, test_src):
            digest.update(source.encode("utf-8", "surrogatepass"))
        return digest.digest()

    def run(self, solution_src: str, test_src: str, timeout=None) -> dict:
        key = self._key(solution_src, test_src, timeout)
        known = self._reads.finished(key) if self._reads is not None else None
        if known is not None:
            return known
        for _ in range(2):  # a second time only if the run shared with another caller went wrong
            with self._lock:
                future, mine = self._runs.get(key), False
                if future is None:
                    future, mine = Future(), True
                    if len(self._runs) >= self.KEPT:
                        self._drop_oldest()
                    self._runs[key] = future
            if mine:
                self._make(key, future, solution_src, test_src, timeout)
                break
            if self._clean(future):
                break
            # What went wrong in another caller's run (a crash under load) is not handed on: run it again, once.
        return copy.deepcopy(future.result())

    def finished(self, key) -> dict | None:
        """A copy of the clean result of the run known by `key`, if it has finished; else None (never waits)."""
        with self._lock:
            future = self._runs.get(key)
        if future is None or not future.done() or not self._clean(future):
            return None
        return copy.deepcopy(future.result())

    def _make(self, key, future: Future, solution_src: str, test_src: str, timeout) -> None:
        """Run it into `future`, remembered only if it ended cleanly (forgotten before anyone waiting sees it)."""
        import harness

        try:
            options = {} if timeout is None else {"timeout": timeout}
            result = harness.run(solution_src, test_src, **options)
        except BaseException as exc:
            self._forget(key, future)
            future.set_exception(exc)
            return
        if result.get("error") is not None:
            self._forget(key, future)
        future.set_result(result)
        if result.get("error") is None:
            self._count(key, result)

    @staticmethod
    def _clean(future: Future) -> bool:
        """Whether a shared run, once finished, ended without an error (waits for it)."""
        try:
            return future.result().get("error") is None
        except BaseException:
            return False

    def _count(self, key, result: dict) -> None:
        size = len(str(result.get("output", ""))) + sum(len(str(name)) + 4 for name in result.get("failed", ()))
        with self._lock:
            if key in self._runs:
                self._sizes[key] = size
            while sum(self._sizes.values()) > self.KEPT_BYTES and len(self._runs) > 1:
                self._drop_oldest()

    def _drop_oldest(self) -> None:
        oldest = next(iter(self._runs))
        self._runs.pop(oldest)
        self._sizes.pop(oldest, None)

    def _forget(self, key, future) -> None:
        with self._lock:
            if self._runs.get(key) is future:
                del self._runs[key]
                self._sizes.pop(key, None)


# What the checks expect is never what an agent's own run returned: the checks' memory takes nothing from the agents'.
# The other way is safe, and saves runs: an agent asking for a run the grader has made gets the grader's result, as
# the same sources would give it (step 5's checks run the lab's solutions on the held-out tests before the agent does).
_GRADER = _Runs()
_AGENTS = _Runs(reads=_GRADER)


def run_tests(solution_src: str, test_src: str, timeout=None) -> dict:
    """`harness.run` for a check itself: the result the check judges an agent against."""
    return _GRADER.run(solution_src, test_src, timeout)


def serve_run(solution_src: str, test_src: str, timeout=None) -> dict:
    """`harness.run` for an agent's own call, while it is graded. Identical code and tests give identical runs, so
    clean results are shared between submissions (grading a class stays fast), but never with the checks."""
    return _AGENTS.run(solution_src, test_src, timeout)
