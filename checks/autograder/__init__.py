"""Autograders for the platforms classes use, built by the lab: a Gradescope autograder zip (gradescope.py, with the
scripts it carries in scripts.py and the lab's grading-only wheel from wheel.py) and a GitHub Classroom workflow
(classroom.py). `spec2code autograder` (lab/commands/autograder.py) writes them.
"""

from . import classroom, gradescope, wheel

__all__ = ["classroom", "gradescope", "wheel"]
