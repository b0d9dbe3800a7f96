"""What the lab's notebooks import: check cells, "try it" cells, the step 4 and 5 demonstrations, and notebook 06's."""

from .beyond import gap_chart, gap_rows, gap_table, model_tests, score_table, timeline, trail_of
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
    "gap_chart",
    "gap_rows",
    "gap_table",
    "model_tests",
    "progress",
    "rounds_chart",
    "rounds_table",
    "run_reference",
    "score_table",
    "timeline",
    "trail_of",
    "try_function",
]
