"""The agents' children running in this process, so that an interrupted grading ends them all at once.

Ctrl-C or SIGTERM reaches the grader's main thread only; the threads grading submissions wait on children in
sessions of their own, which no signal at the terminal reaches. `stop_all` kills those children (and, with a user
of their own, every process of that user: the daemons they left) so the waiting calls fail at once, and refuses
new children while the threads finish.
"""

from __future__ import annotations

import contextlib
import threading

_lock = threading.Lock()  # held while children are killed, so none is given back (its user freed) meanwhile
_links: set = set()  # the ChildLinks started and not yet stopped
_stopping = False
_noted = threading.local()  # per grading thread: what the walls stopped after its children (see `noting`)


class Stopping(KeyboardInterrupt):
    """A child was refused: the grading is being interrupted (it ends the submission's grading, not just a check)."""


def may_start() -> None:
    """Raise Stopping if no child may start now (checked before starting one, and again by `started`)."""
    if _stopping:
        raise Stopping()


def started(link) -> None:
    """Count `link` among the running children; while every child is being stopped, stop it and raise Stopping."""
    with _lock:
        if not _stopping:
            _links.add(link)
            return
    link.stop()
    raise Stopping()


def stopping(link) -> None:
    """`link` is about to be stopped by its owner: no longer ours to kill (it waits for a kill under way)."""
    with _lock:
        _links.discard(link)


@contextlib.contextmanager
def stop_all():
    """Kill every running child now and refuse new ones until the block ends (where the grader waits for its
    threads, whose calls then fail at once)."""
    global _stopping
    with _lock:
        _stopping = True
        for link in list(_links):
            link.kill()
    try:
        yield
    finally:
        with _lock:
            _stopping = False


@contextlib.contextmanager
def noting():
    """Within the block, collect (in the list it gives) what the walls had to stop after the children this thread
    stops: a process an agent left running once its own had ended, say. Grading puts it in the submission's row."""
    before = getattr(_noted, "found", None)
    _noted.found = []
    try:
        yield _noted.found
    finally:
        _noted.found = before


def note(what: str) -> None:
    """Say `what` the walls stopped, to the `noting` block of this thread, if any (once each)."""
    found = getattr(_noted, "found", None)
    if found is not None and what not in found:
        found.append(what)
