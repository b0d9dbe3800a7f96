"""What the lab's notebooks import: check cells, "try it" cells, the step 4 and 5 demos, and the kernel extension."""

from .check_cell import Report, check_step, progress
from .demos import REFERENCE, contrast_chart, contrast_table, rounds_chart, rounds_table, run_reference
from .try_cell import Tried, try_function

# Importable from here too, outside __all__: the kernel loads this module as its extension (lab/launch.py), and the
# settings and display types keep the names they had before the helpers moved into their own modules.
from .agent_file import ROOT  # noqa: F401
from .displays import CUT, Chart, Message, Table  # noqa: F401
from .kernel_extension import load_ipython_extension  # noqa: F401
from .try_cell import TRY_MINIMUM, TRY_TIMES  # noqa: F401

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
