"""The student's own files, copied from the install into a folder of their own: what one install serves many with.

On a JupyterHub the lab is installed once (the image, or a shared prefix) and each student's home holds only what
is theirs: lab/agent.py, the notebooks, and (made as they work) .cache/. `spec2code lab --student-files DIR`
writes these files, never over one already there: into a new folder that becomes the repository an nbgitpuller
link hands out, or into a student's folder directly.
"""

from __future__ import annotations

from pathlib import Path

from harness.errors import LaunchError
from harness.files import write_atomically
from harness.settings import PROJECT_ROOT

from lab.stubs import render

NOTEBOOKS = PROJECT_ROOT / "notebooks"  # the notebooks as the lab ships them
TRY_IT = PROJECT_ROOT / "lab" / "try_it.py"  # the learner's script of lab/ (agent.py's docstring names it)
# Never the student's to hand in or pull: what the lab and JupyterLab write beside their files as they work.
IGNORED = (".cache/", "lab/saved/", "notebooks/saved/", ".ipynb_checkpoints/", "__pycache__/")


def shipped() -> dict[str, str]:
    """The student's files as a fresh student gets them, by path in their folder: the stubs (made from the
    reference, as `spec2code reset` makes them), try_it.py, every notebook, and a .gitignore for a repository."""
    notebooks = sorted(NOTEBOOKS.glob("*.ipynb"))
    if not notebooks or not TRY_IT.is_file():
        raise LaunchError(
            f"This install of the lab has no notebooks ({NOTEBOOKS}) or no lab/try_it.py: it was installed as a "
            "package. Install it from its folder instead: git clone the lab, then pip install -e . in it."
        )
    files = {"lab/agent.py": render(), "lab/try_it.py": _text(TRY_IT)}
    files |= {f"notebooks/{path.name}": _text(path) for path in notebooks}
    files[".gitignore"] = "".join(f"{pattern}\n" for pattern in IGNORED)
    return files


def put(folder: Path) -> list[str]:
    """Write each of the student's files that `folder` lacks; never touch one that is there. One line each."""
    folder = Path(folder).expanduser().resolve()
    if folder == PROJECT_ROOT:
        raise LaunchError(f"{folder} is the lab's own folder, where the student's files already are: name another "
                          "folder (spec2code lab --student-files ~/spec2code-lab), or set SPEC2CODE_STUDENT_DIR")
    lines = []
    for name, text in shipped().items():
        target = folder / name
        if target.exists():
            lines.append(f"kept {name} (already there)")
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, text)
        except OSError as exc:
            raise LaunchError(f"Cannot write {target}: {exc.strerror or exc}. Name a folder you can write to.")
        lines.append(f"put  {name}")
    return lines



def _text(path: Path) -> str:
    with open(path, encoding="utf-8", newline="") as file:  # as it is, line endings too
        return file.read()
