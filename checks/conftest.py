"""`python -m pytest checks --agent PATH`: grade one agent.py once, then show each check's verdict as a test."""

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--agent",
        default=None,
        metavar="PATH",
        help="the agent.py to grade (default: $SPEC2CODE_AGENT, else lab/agent.py)",
    )


def pytest_report_header(config):
    from harness.settings import agent_path, shown

    return f"agent: {shown(agent_path(config.getoption('--agent')))}"


@pytest.fixture(scope="session")
def graded(request):
    """The engine's verdict on every step of the agent, computed once per session."""
    from checks.engine import grade_agent

    return grade_agent(request.config.getoption("--agent"))
