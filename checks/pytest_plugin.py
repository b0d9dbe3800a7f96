"""`python -m pytest --pyargs checks --agent PATH`: grade one agent.py once, then show each check's verdict as a test.

A pytest plugin the lab installs (an entry point), so the option works from any folder and from an installed copy.
"""

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("spec2code", "the lab's checks (python -m pytest --pyargs checks)")
    group.addoption("--agent", default=None, metavar="PATH",
                    help="the agent.py the lab's checks grade (default: $SPEC2CODE_AGENT, else lab/agent.py)")
    group.addoption("--task", default=None, metavar="NAME",
                    help="the task of the checks that run the lab's model in steps 2 and 4 (default: leap_year)")


@pytest.fixture(scope="session")
def graded(request):
    """The engine's verdict on every step of the agent, computed once per session."""
    from checks.engine import grade_agent

    return grade_agent(request.config.getoption("--agent"), task=request.config.getoption("--task"))
