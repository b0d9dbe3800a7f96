"""Gradescope's image, faked on this machine: the lab's zip unpacked into a fake /autograder and setup.sh run in a
fresh virtual environment with no network (pip reads a wheelhouse repacked from what this environment has installed).
The Gradescope tests run run_autograder in it, and `make bench` measures what one grading costs there."""

import base64
import hashlib
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

from lab.commands import autograder
from tests.harness.sandbox import identities


def build_zip(folder: Path, *options: str) -> Path:
    out = folder / "autograder.zip"
    assert autograder.main(["gradescope", "--out", str(out), *options]) == 0
    return out


def repack(name: str, wheelhouse: Path) -> None:
    """A wheel of the installed distribution `name` (pure Python), rebuilt from its installed files."""
    dist = metadata.distribution(name)
    info = next(f for f in dist.files if f.parent.name.endswith(".dist-info") and f.name == "METADATA").parent
    files = {}
    for entry in dist.files:
        if entry.parts[0] == ".." or entry.name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json") \
                or "__pycache__" in entry.parts:
            continue
        files[entry.as_posix()] = Path(dist.locate_file(entry)).read_bytes()
    tag = next(line.split(": ")[1] for line in files[f"{info}/WHEEL"].decode().splitlines() if line.startswith("Tag"))
    record = "".join(f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()}"
                     f",{len(data)}\n" for path, data in files.items()) + f"{info}/RECORD,,\n"
    stem = info.name[: -len(".dist-info")]
    with zipfile.ZipFile(wheelhouse / f"{stem}-{tag}.whl", "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
        archive.writestr(f"{info}/RECORD", record)


def requirements(name: str, seen: set) -> set:
    """`name` and everything it requires here, recursively (markers evaluated for this Python)."""
    key = name.lower().replace("_", "-")
    if key in seen:
        return seen
    seen.add(key)
    for text in metadata.requires(name) or []:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            requirements(requirement.name, seen)
    return seen


def install(base: Path) -> tuple[Path, dict, Path]:
    """Gradescope's image in `base` (a folder every user can read, as Gradescope's image is: the grader's children
    run as users of their own): (the fake /autograder, the environment to run its scripts with, the image's Python
    environment). setup.sh has run; `root / "run_autograder"` is in place, as Gradescope puts it."""
    wheelhouse = base / "wheelhouse"
    wheelhouse.mkdir()
    for name in requirements("pytest", set()):
        repack(name, wheelhouse)
    image = base / "image"  # the Python of Gradescope's image, which every user can run: nothing installed in it yet
    subprocess.run([identities.runtime() or sys.executable, "-m", "venv", str(image)], check=True, timeout=300)
    root = base / "autograder"
    with zipfile.ZipFile(build_zip(base)) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope does
    (root / "run_autograder").chmod(0o755)
    env = {"PATH": f"{image / 'bin'}:/usr/bin:/bin", "HOME": str(base), "LANG": "C.UTF-8",
           "SPEC2CODE_AUTOGRADER_ROOT": str(root), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse)}
    done = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the autograder is installed" in done.stdout
    return root, env, image
