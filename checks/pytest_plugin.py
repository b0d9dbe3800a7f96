"""`python -m pytest --pyargs checks --agent PATH`: grade one agent.py once, then show each check's verdict as a test.

A pytest plugin the lab installs (an entry point), so the option works from any folder and from an installed copy.
"""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent  # the checks package


def pytest_addoption(parser):
    group = parser.getgroup("spec2code", "the lab's checks (python -m pytest --pyargs checks)")
    group.addoption("--agent", default=None, metavar="PATH",
                    help="the agent.py the lab's checks grade (default: $SPEC2CODE_AGENT, else lab/agent.py)")
    group.addoption("--task", default=None, metavar="NAME",
                    help="the task of the checks that run the lab's model in steps 2 and 4 (default: leap_year)")


def pytest_collect_file(file_path: Path, parent):
    """The step modules are the checks, not tests of the lab, so their names do not start with test_: collect them
    when pytest is pointed at the checks package (they are never in a folder of the lab's own tests)."""
    if file_path.suffix != ".py" or file_path.parent.resolve() != HERE or parent.session.isinitpath(file_path):
        return None  # a file named on the command line is collected by pytest itself, whatever its name
    from checks.steps import STEPS  # only here: the plugin loads in every pytest run, the lab's own tests too

    if file_path.stem in {step.module.rpartition(".")[2] for step in STEPS}:
        return pytest.Module.from_parent(parent, path=file_path)
    return None


@pytest.fixture(scope="session")
def graded(request):
    """The engine's verdict on every step of the agent, computed once per session."""
    from checks.engine import grade_agent

    return grade_agent(request.config.getoption("--agent"), task=request.config.getoption("--task"))
