"""harness/sandbox/results: a run's result from the test process's records, bounded whatever the records say."""

from harness.sandbox.results import MAX_OUTPUT, MAX_TEST_OUTPUT, assemble


def test_one_test_s_long_details_leave_room_for_the_next_failure():
    events = [{"event": "collected", "names": ["test_a", "test_b"]},
              {"event": "test", "name": "test_a", "outcome": "failed", "details": "a" * (10 * MAX_OUTPUT)},
              {"event": "test", "name": "test_b", "outcome": "failed", "details": "b is wrong"},
              {"event": "done"}]
    result = assemble(events, False, 10.0, "process", "")
    assert result["failed"] == ["test_a", "test_b"]
    assert "b is wrong" in result["output"] and len(result["output"]) <= MAX_OUTPUT
    assert MAX_TEST_OUTPUT < MAX_OUTPUT and result["output"].count("a") < MAX_TEST_OUTPUT + 100
