"""The one way the lab runs a learner's agent.py: in a child process behind walls, speaking one wire.

parent.py is the lab's side (`Agent`), child.py the child's, start.py puts up the walls before the child starts,
and wire.py is what both sides say; live.py knows the children running, so an interrupted grading ends them all.
"""

from .parent import Agent, AgentError, CannotStart, Crashed, LabModel, LoadFailed, NotStarted, Raised, TimedOut
from .wire import Opaque, Unsendable

__all__ = [
    "Agent",
    "AgentError",
    "CannotStart",
    "Crashed",
    "LabModel",
    "LoadFailed",
    "NotStarted",
    "Opaque",
    "Raised",
    "TimedOut",
    "Unsendable",
]
