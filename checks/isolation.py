"""The walls grading has here: the weaker of the sandbox's (the model's code) and the agent child's (the learner's
code), as every report states it; and refusing to grade below a level an instructor requires, or where either
side would run no code at all (as root, with no user of its own to give it)."""

from __future__ import annotations

from harness import levels, settings
from harness.errors import LabError


class IsolationTooWeak(LabError):
    """Grading was asked to hold a level of isolation this machine does not give."""


def in_force() -> dict:
    """{"level": the weaker of the two, "sandbox": its level, "agent": the agent child's level, "lacks": {wall: why},
    "refused": why no code may run here, "" where code may}."""
    from harness import sandbox

    from .runner.link import ladder

    child = ladder(settings.get("SPEC2CODE_ISOLATION"))
    ran = sandbox.isolation_level()
    lacks = {**child.lacks, **sandbox.isolation_lacks()}
    refused = child.refused or sandbox.isolation_refused()
    return {"level": levels.weaker(ran, child.level), "sandbox": ran, "agent": child.level, "lacks": lacks,
            "refused": refused}


def require(level: str | None) -> dict:
    """What is in force, or IsolationTooWeak when it is weaker than `level` (None: anything goes) or when no code may
    run here at all: a grade where no learner's or model's code ran would read as a class of zeros."""
    found = in_force()
    if found["refused"]:
        raise IsolationTooWeak(f"refusing to grade: {found['refused']}")
    if level and not levels.at_least(found["level"], level):
        missing = "; ".join(found["lacks"].values()) or "see 'The sandbox' in the README"
        raise IsolationTooWeak(
            f"refusing to grade: the isolation here is {found['level']!r} (the sandbox: {found['sandbox']}, the "
            f"agent's process: {found['agent']}), below the {level!r} required. At this level {missing}. Run as "
            "root on Linux (a container, a grading server) for the full walls, or lower the requirement."
        )
    return found
