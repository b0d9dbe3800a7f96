"""Mistake (step 1): deletes the word "python" everywhere, not just the tag on the fence."""

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "drops_the_python_tag", "says": "not every 'python'"}


def extract_code(reply):
    if "```" not in reply:
        return reply.strip()
    return reply.split("```")[1].replace("python", "").strip()
