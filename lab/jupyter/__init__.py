"""What the lab's notebooks import: check cells, "try it" cells, and the step 4 and 5 demonstrations."""

from .check_cell import Report, check_step, progress
from .demos import REFERENCE, contrast_chart, contrast_table, rounds_chart, rounds_table, run_reference
from .try_cell import Tried, try_function

__all__ = [
    "REFERENCE",
    "Report",
    "Tried",
    "check_step",
    "contrast_chart",
    "contrast_table",
    "progress",
    "rounds_chart",
    "rounds_table",
    "run_reference",
    "try_function",
]
