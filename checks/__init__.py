"""Per-step checks that grade a learner's agent.py, run in a child process so the verdict stays out of its reach.

    import checks
    report = checks.grade_agent("lab/agent.py", steps=[1, 2])
    report["steps"][0]["status"]   # "passed", "failed", "not started" or "blocked"
"""

from .scripted import ScriptedAsk
from .engine import BLOCKED, FAILED, NOT_STARTED, PASSED, grade_agent
from harness.settings import agent_path

from .steps import STEPS, Step, step

__all__ = [
    "BLOCKED",
    "FAILED",
    "NOT_STARTED",
    "PASSED",
    "STEPS",
    "ScriptedAsk",
    "Step",
    "agent_path",
    "grade_agent",
    "step",
]
