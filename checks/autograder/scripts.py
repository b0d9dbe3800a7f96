"""The two scripts Gradescope runs, as the zip carries them: setup.sh (once, to build the image) and run_autograder
(once per submission). Both honour SPEC2CODE_AUTOGRADER_ROOT (default /autograder), so the same zip runs in a
fake root in the tests or on any machine.

They are kept here as text, not as files beside this module, so that an installed copy of the lab can build the zip.
"""

from __future__ import annotations

SETUP = """\
#!/usr/bin/env bash
# setup.sh: Gradescope runs this once, as root, when it builds the autograder's image. It installs what grading
# needs and nothing more: the lab's grading-only wheel beside this script, which requires pytest alone (no
# JupyterLab, no plotting). It needs Gradescope's Ubuntu 22.04 base image or a later one (Python 3.10 or newer).
# Built by `spec2code autograder gradescope`.
set -euo pipefail
ROOT="${SPEC2CODE_AUTOGRADER_ROOT:-/autograder}"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_BREAK_SYSTEM_PACKAGES=1  # an image's own Python is ours to install into

if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    found="$(python3 -V 2>&1 || true)"
    echo "spec2code: the lab needs Python 3.10 or newer, and this image has ${found:-no python3}. On the \\
assignment's Configure Autograder page, set the Base Image to Ubuntu 22.04 (or later), then press Update \\
Autograder." >&2
    exit 1
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-pip
fi
python3 -m pip install --quiet "$ROOT"/source/@WHEEL@
python3 -I -m lab.commands grade --help >/dev/null  # fail the build now, not on the first student
echo "spec2code: the autograder is installed"
"""

RUN = """\
#!/usr/bin/env bash
# run_autograder: Gradescope runs this for every submission. It grades $ROOT/submission with the lab and always
# writes $ROOT/results/results.json, even when grading crashes or runs out of time (then with a zero that says
# why), unless no submission can run on this machine at all: then none, so that Gradescope shows the autograder
# failed instead of a score. Built by `spec2code autograder gradescope` with: @DESCRIPTION@
set -u
ROOT="${SPEC2CODE_AUTOGRADER_ROOT:-/autograder}"
LIMIT=@LIMIT@  # seconds grading may take before it is stopped and a zero is written
RESULTS="$ROOT/results/results.json"
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT  # however this script ends, it leaves no file behind
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
cd "$ROOT"

timeout --kill-after=10 "$LIMIT" python3 -I -m lab.commands grade --format gradescope \\
    --submission-dir "$ROOT/submission" --results "$RESULTS" @OPTIONS@ 2>"$LOG"
status=$?
cat "$LOG" >&2  # the grader's summary and progress, for the instructor's view of this run

if [ "$status" -eq 0 ] && [ -s "$RESULTS" ]; then  # exit status 0: the grader read it back as JSON
    exit 0
fi
if [ "$status" -eq @CANNOT_START@ ]; then
    # No submission can run on this machine: the autograder's fault, so no score. Without a results.json Gradescope
    # shows the student "The autograder failed to execute correctly", and the instructor this log; fix, then regrade.
    echo "spec2code: the autograder failed, not this submission: no score was written. $(tail -n 1 "$LOG")"
    exit 1
fi
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    why="Grading stopped after $LIMIT s without a result. The most likely cause is code in agent.py that never \\
finishes: a loop at the top level of the file, or in a function, whose condition never changes. Run \\
\\`spec2code check\\` in your lab to see which step hangs, then submit again."
else
    why="The autograder could not finish grading this submission (exit status $status). This may be a problem \\
in the lab rather than in your code: tell your instructor. The grader said: $(tail -n 3 "$LOG" | tr '\\n' ' ')"
fi
python3 -I - "$RESULTS" "$why" "$SECONDS" <<'PYTHON' || printf '%s\\n' '@LAST_RESORT@' >"$RESULTS"
import json, sys

path, why, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
tests = @TESTS@
for test in tests:
    test.update(score=0, status="failed", output="Not graded: " + why, output_format="text", name_format="text")
results = {"score": 0, "execution_time": seconds, "output": why, "output_format": "text",
           "visibility": @VISIBILITY@, "stdout_visibility": "hidden", "tests": tests}
with open(path, "w", encoding="utf-8") as file:
    json.dump(results, file, indent=2)
PYTHON
echo "spec2code: wrote a zero to $RESULTS: $why" >&2
exit 0
"""
