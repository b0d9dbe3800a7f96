"""checks/isolation: every report says which walls it was graded with, and grading below a required level refuses."""

import pytest

import checks
from checks import isolation
from harness import levels
from tests.paths import REFERENCE_AGENT


def test_the_report_says_the_weaker_of_the_two_levels(monkeypatch):
    found = isolation.in_force()
    assert found["level"] in levels.NAMES
    assert levels.rank(found["level"]) == min(levels.rank(found["sandbox"]), levels.rank(found["agent"]))
    assert checks.grade_agent(REFERENCE_AGENT, steps=[1])["isolation"] == found["level"]


@pytest.mark.slow
def test_below_the_required_level_nothing_is_graded(monkeypatch, tmp_path):
    monkeypatch.setenv("SPEC2CODE_ISOLATION", "process")
    marker = tmp_path / "ran"
    agent = tmp_path / "agent.py"
    agent.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    with pytest.raises(isolation.IsolationTooWeak, match=r"refusing to grade: the isolation here is 'process'.* below "
                                                         r"the 'user' required"):
        checks.grade_agent(agent, require="user")
    monkeypatch.setenv("SPEC2CODE_REQUIRE_ISOLATION", "namespaces")
    with pytest.raises(isolation.IsolationTooWeak):
        checks.grade_agent(agent)
    assert not marker.exists()
    monkeypatch.delenv("SPEC2CODE_REQUIRE_ISOLATION")
    assert checks.grade_agent(REFERENCE_AGENT, steps=[1], require="process")["isolation"] == "process"


@pytest.mark.slow
def test_where_no_code_may_run_nothing_is_graded_and_the_reason_is_the_message(monkeypatch, tmp_path):
    """As root with no user to give the runs (Python only root may read, say), the sandbox runs nothing: a grade there
    would be a class of zeros, so it is refused, in the sandbox's own words."""
    from harness import sandbox

    why = "the sandbox will not run untrusted code as root: Python at /root/.pyenv cannot be read by other users"
    monkeypatch.setattr(sandbox, "isolation_refused", lambda: why)
    marker = tmp_path / "ran"
    agent = tmp_path / "agent.py"
    agent.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    with pytest.raises(isolation.IsolationTooWeak) as raised:
        checks.grade_agent(agent)
    assert str(raised.value) == f"refusing to grade: {why}" and not marker.exists()


def test_a_submission_that_uses_up_its_budget_is_stopped_with_a_message(monkeypatch):
    from checks import engine

    monkeypatch.setattr(engine, "SUBMISSION_BUDGET", 0.0)
    report = checks.grade_agent(REFERENCE_AGENT, steps=[1])
    assert {c["message"] for c in report["steps"][0]["checks"]} == {
        "not checked: grading this agent took more than 0 s in all"
    }
