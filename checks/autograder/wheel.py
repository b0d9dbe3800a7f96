"""The lab as a grading-only wheel: harness/, checks/ and lab/ (less its JupyterLab side) requiring only pytest.

Grading imports nothing else outside the standard library (the notebooks' JupyterLab and matplotlib are imported
only in lab/jupyter, and the live model's openai only when a live model is asked), so a Gradescope image installs
this wheel and pytest, not the ~460 MB of the full install. The wheel is written here, from the lab's own files,
by the zip and hash rules of the wheel format, so it can be built from an installed copy as well as a source tree,
with no build tool and no network; the same files give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from importlib import metadata

from harness.settings import PROJECT_ROOT

NAME = "spec2code-lab"
PACKAGES = ("harness", "checks", "lab")  # what grading runs: the harness, the checks, the spec2code command
REQUIRES = ("pytest>=8",)  # everything grading imports beyond the standard library and the packages above
LEFT_OUT = ("lab/jupyter",)  # the notebooks' JupyterLab side: grading never imports it (a test checks)
STAMP = (1980, 1, 1, 0, 0, 0)  # every entry's date: the same files make the same wheel


def version() -> str:
    """The lab's version: as installed, else from pyproject.toml beside the packages, else 0.0.0."""
    try:
        return metadata.version(NAME)
    except metadata.PackageNotFoundError:
        pass
    pyproject = PROJECT_ROOT / "pyproject.toml"
    if pyproject.is_file():
        for line in pyproject.read_text(encoding="utf-8").splitlines():
            if line.startswith("version"):
                return line.split("=", 1)[1].strip().strip('"')
    return "0.0.0"


def filename() -> str:
    return f"{NAME.replace('-', '_')}-{version()}-py3-none-any.whl"


def build() -> bytes:
    """The wheel's bytes."""
    dist_info = f"{NAME.replace('-', '_')}-{version()}.dist-info"
    files: list[tuple[str, bytes]] = [(path, data) for path, data in _package_files()]
    files += [
        (f"{dist_info}/METADATA", _metadata().encode()),
        (f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: spec2code autograder\nRoot-Is-Purelib: true\n"
                               b"Tag: py3-none-any\n"),
        (f"{dist_info}/entry_points.txt", b"[console_scripts]\nspec2code = lab.commands:main\n"),
        (f"{dist_info}/top_level.txt", "".join(f"{p}\n" for p in PACKAGES).encode()),
    ]
    record = "".join(f"{path},sha256={_digest(data)},{len(data)}\n" for path, data in files)
    files.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            entry = zipfile.ZipInfo(path, STAMP)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return buffer.getvalue()


def _package_files():
    for package in PACKAGES:
        for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
            name = path.relative_to(PROJECT_ROOT).as_posix()
            if "__pycache__" not in name and not name.startswith(LEFT_OUT) and path.is_file():
                yield name, path.read_bytes()


def _metadata() -> str:
    lines = ["Metadata-Version: 2.1", f"Name: {NAME}", f"Version: {version()}",
             "Summary: The Spec to Code lab, as grading needs it (no JupyterLab, no plotting)",
             "Requires-Python: >=3.10", *(f"Requires-Dist: {r}" for r in REQUIRES)]
    return "\n".join(lines) + "\n"


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

