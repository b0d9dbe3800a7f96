"""Mistake (step 1): looks only for ```python, so a bare ``` fence is not recognised."""

from solutions.agent import holdout_check, solve, write_solution, write_tests  # noqa: F401

EXPECTED = {"step": 1, "check": "handles_a_bare_fence", "says": "only look for ```python"}


def extract_code(reply):
    if "```python" not in reply:
        return reply.strip()
    return reply.split("```python", 1)[1].split("```", 1)[0].strip()
