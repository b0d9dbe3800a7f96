"""`python -m lab.commands ...` is `spec2code ...`, for when the command is not on the PATH."""

import sys

from . import main

sys.exit(main())
