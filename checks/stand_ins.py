"""The reference's functions standing in for a learner's unfinished steps, while a step that needs them is graded.

A blocked step's checks run anyway and say "(would pass)" or "(would fail)". With the steps it needs still broken
they would judge those steps again (a correct solve told to "write the tests once" because extract_code is wrong).
So for a blocked step the engine hands the learner's child a stand-in for each unfinished function (child.py): the
reference agent, loaded as any agent is, in a walled child of its own, answers every call. The learner's process
gets only what the reference returns, never its code, and asks the model itself, through the ask it was given.
Where the lab has no reference (installed without solutions/), a blocked step is judged with the learner's own.
"""

from __future__ import annotations

import functools
from pathlib import Path

from harness.settings import REFERENCE_AGENT

from .runner import Agent, AgentError
from .runner.wire import STAND_IN_ASK
from .scripted import ScriptedAsk, serve_run
from .steps import BY_FUNCTION


class Reference:
    """The reference agent, started on first use; `stand_ins(functions)` is what Agent.call takes to put it in
    place of those functions of a learner's agent for one call."""

    def __init__(self, path=REFERENCE_AGENT):
        self._path, self._agent = Path(path), None

    def stand_ins(self, functions) -> dict:
        if not functions or not self._path.is_file():
            return {}
        return {name: functools.partial(self._answer, name) for name in functions if name in BY_FUNCTION}

    def _answer(self, name: str, args, kwargs, replies) -> dict:
        """The reference's `name` on these arguments, its model answering with `replies` so far: its value, or
        the next prompt it sends (for the learner's child to ask)."""
        if not (isinstance(args, list) and isinstance(kwargs, dict) and isinstance(replies, list)):
            return {"error": f"the lab could not read that call of {name}"}
        model = ScriptedAsk(lambda prompt: replies[len(model.calls) - 1] if len(model.calls) <= len(replies) else "")
        args = [model if value == STAND_IN_ASK else value for value in args]
        kwargs = {key: model if value == STAND_IN_ASK else value for key, value in kwargs.items()}
        if "ask" in BY_FUNCTION[name].parameters and model not in args + list(kwargs.values()):
            kwargs["ask"] = model  # it was called without an ask: the child asks through harness.ask
        if self._agent is None:
            self._agent = Agent(self._path, runs=serve_run)
        try:
            value = self._agent.call(name, *args, time_limit=BY_FUNCTION[name].time_limit, **kwargs)
        except (AgentError, TypeError) as exc:
            return {"error": f"{name} (the lab's, standing in for yours while a later step is checked) failed: {exc}"}
        if len(model.calls) > len(replies):
            return {"ask": model.calls[len(replies)][1]}
        return {"result": value}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._agent is not None:
            self._agent.stop()
