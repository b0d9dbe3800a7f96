"""Where the tests find the project and their fixture corpora, whichever folder a test file sits in."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the project folder
TESTS = ROOT / "tests"
AGENTS = TESTS / "agents"  # fixture agents: wrong, correct, forging, special (see agents/README.md)
HOSTILE = TESTS / "hostile"  # hostile solutions for the sandbox (see hostile/README.md)
REFERENCE_AGENT = ROOT / "solutions" / "agent.py"
LAB_AGENT = ROOT / "lab" / "agent.py"
