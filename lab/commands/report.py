"""`spec2code report GRADES.json [--out report.html]`: the class report, one HTML page to open in a browser.

    spec2code grade class/ --format json --out grades.json
    spec2code report grades.json --out report.html
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from checks.report.class_page import to_html
from harness.errors import UsageError
from harness.files import write_atomically
from harness.text import clean_data

from .parsing import Parser


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="spec2code report",
                     description="Make the class report: one self-contained HTML page (pass rates per step, the "
                     "score distribution, the checks most students fail, submissions that timed out, crashed or "
                     "tried to forge, the isolation in force) from the grades of `spec2code grade --format json`.")
    parser.add_argument("grades", metavar="GRADES.json", help="the JSON that spec2code grade --format json wrote")
    parser.add_argument("--out", metavar="PATH", default="report.html", help="the page to write (default: report.html)")
    try:
        args = parser.parse_args(argv)
        graded = _read(Path(args.grades).expanduser(), args.grades)
        out = Path(args.out).expanduser()
        if out.is_dir():
            raise UsageError(f"{args.out} is a folder: give --out a file name")
        write_atomically(out, to_html(graded, source=Path(args.grades).name))
    except UsageError as exc:
        print(f"spec2code report: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"spec2code report: could not write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"Wrote {out}: {len(graded)} submissions. Open it in a browser.")
    return 0


def _read(path: Path, text: str) -> list[dict]:
    """The scored reports in a grades.json, or UsageError saying what is wrong with the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"there is no file {text}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{text} is not JSON ({exc}): give the file `spec2code grade --format json` wrote") from None
    if not isinstance(data, list) or not all(_is_scored(one) for one in data):
        raise UsageError(f"{text} is not a class's grades: write it with spec2code grade SUBMISSIONS --format json")
    return clean_data(data)  # a hand-edited file may hold anything; what the page shows is made safe here


def _is_scored(one) -> bool:
    return isinstance(one, dict) and isinstance(one.get("steps"), list) and all(
        key in one for key in ("submission", "score", "max_score", "note"))
