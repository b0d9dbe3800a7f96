"""The try cell: a learner's function called in the lab's walled child, with what it returned, printed and asked."""

import time

import pytest

from lab.jupyter import (
    try_function,
)
from tests.helpers import write_agent


def test_a_stub_is_not_started(agent):
    tried = try_function("extract_code", "x", agent_path=agent)
    assert not tried.ok
    assert tried.problem.startswith("Step 1 (extract_code) is not started yet: extract_code still raises "
                                    "NotImplementedError (agent.py line 5).")
    assert tried.problem.endswith(f"Write it in {agent}, save, and run this cell again.")
    assert tried.diagnosis.kind == "not started" and tried.diagnosis.line == 5
    assert 'data-ok="false"' in tried._repr_html_()


def test_a_function_that_calls_a_stub_names_the_stub(agent):
    tried = try_function("write_solution", "spec", agent_path=agent)
    assert tried.problem.startswith("write_solution calls step 1 (extract_code), which still raises NotImplementedError")
    assert (tried.diagnosis.kind, tried.diagnosis.step) == ("calls a stub", 1)


@pytest.mark.slow
def test_a_hang_is_stopped_with_a_message(agent):
    tried = try_function("solve", "spec", agent_path=agent, timeout=1)
    # Where its code was when the lab last looked: the loop's line or its body's.
    assert tried.problem.startswith(("solve ran for more than 1 s and was stopped (agent.py line 17).\n    while True:\n",
                                     "solve ran for more than 1 s and was stopped (agent.py line 18).\n    pass\n"))
    assert "\nHint: does the loop end after" in tried.problem


def test_an_exception_names_the_line_of_the_learners_file(agent):
    tried = try_function("holdout_check", "abc", agent_path=agent)
    assert tried.problem.startswith("holdout_check raised KeyError (agent.py line 23): 'b'.")
    assert "\n    return {\"a\": 1}[\"b\"]\n" in tried.problem and tried.diagnosis.source == 'return {"a": 1}["b"]'
    assert '<pre>return {"a": 1}["b"]</pre>' in tried._repr_html_().replace("&quot;", '"')
    assert tried.printed == "checking 3\n"


def test_the_calls_to_the_model_are_recorded_and_the_value_returned(agent):
    tried = try_function("write_tests", "is_leap_year(year) SPEC", agent_path=agent)
    assert tried.ok and "def test_" in tried.value
    [(prompt, reply)] = tried.asks
    assert prompt.endswith("is_leap_year(year) SPEC") and reply == tried.value
    assert "write_tests returned:" in repr(tried) and "--- ask #1: the prompt ---" in repr(tried)


def test_the_model_can_be_chosen_for_one_call(tmp_path):
    path = write_agent(tmp_path, "import os\n\ndef which():\n    return os.environ.get('SPEC2CODE_MODEL')\n")
    assert try_function("which", agent_path=path, model="gaming").value == "gaming"


def test_a_syntax_error_is_shown_with_its_line(tmp_path):
    path = write_agent(tmp_path, "def extract_code(reply):\n    return reply\n\ndef write_tests(spec:\n    pass\n")
    tried = try_function("extract_code", "x", agent_path=path)
    assert "has a syntax error on line 4" in tried.problem and "def write_tests(spec:" in tried.problem


@pytest.mark.slow
def test_a_missing_function_and_an_exit_at_import_are_messages(tmp_path):
    path = write_agent(tmp_path, "def extract_code(reply):\n    return reply\n")
    assert "has no function `solve`" in try_function("solve", "x", agent_path=path).problem
    path = write_agent(tmp_path, "import os\nos._exit(3)\n", name="exits.py")
    assert "exits.py ended its process while loading (exit code 3)" in try_function("solve", agent_path=path).problem


def test_a_value_that_breaks_the_contract_is_shown_with_what_is_wrong(tmp_path):
    path = write_agent(tmp_path, "def holdout_check(solution_src):\n    return {'failed': []}\n")
    tried = try_function("holdout_check", "x", agent_path=path)
    assert not tried.ok and tried.diagnosis.kind == "wrong return"
    assert repr(tried).startswith("holdout_check returned: a dict\n{'failed': []}\n")
    assert "holdout_check returns a dict, not a list of test names." in tried.problem


def test_arguments_that_cannot_cross_to_the_child_are_a_message(agent):
    tried = try_function("extract_code", lambda: 1, agent_path=agent)
    assert "cannot be sent to the child process" in tried.problem


@pytest.mark.slow
def test_a_cpu_loop_in_solve_is_stopped_as_soon_as_the_check_stops_it(tmp_path):
    from checks.steps import BY_NUMBER
    from harness import SPEC
    from tests.helpers import contained_corpus

    started = time.monotonic()
    tried = try_function("solve", SPEC, agent_path=contained_corpus() / "wrong" / "cpu_loop_in_solve.py")
    assert BY_NUMBER[4].time_limit == 10.0 and 10.0 <= time.monotonic() - started < 28.0  # not the 30 s it took (a loaded machine adds some)
    agent = contained_corpus() / "wrong" / "cpu_loop_in_solve.py"
    line = agent.read_text().splitlines().index("        code = code") + 1
    at = f"solve ran for more than 10 s and was stopped (cpu_loop_in_solve.py line "
    assert tried.problem.startswith((f"{at}{line - 1}).\n    while not passed:", f"{at}{line}).\n    code = code\n"))
    assert ("\nHint: does the loop end after max_iters attempts (for _ in range(max_iters)), and stop when a run "
            "passes?") in tried.problem


@pytest.mark.slow
def test_a_cpu_loop_in_extract_code_reached_from_solve_gets_extract_codes_hint_not_solves():
    from harness import SPEC
    from tests.helpers import contained_corpus

    agent = contained_corpus() / "wrong" / "cpu_loop_in_extract_code.py"
    line = agent.read_text().splitlines().index("    while start < 0:") + 1
    tried = try_function("solve", SPEC, agent_path=agent, timeout=2)
    at = "In step 1 (extract_code): solve ran for more than 2 s and was stopped in extract_code (cpu_loop_in_extract_code.py"
    assert tried.problem.startswith((f"{at} line {line}).\n    while start < 0:\n", f"{at} line {line + 1}).\n    pass\n"))
    assert ("\nHint: look for a loop in extract_code that never ends, e.g. a while loop whose condition never "
            "changes.") in tried.problem
    assert "max_iters" not in tried.problem


@pytest.mark.slow
def test_solve_with_keys_of_its_own_is_told_the_keys_it_lacks_as_the_check_tells_it():
    import checks
    from harness import SPEC
    from lab.jupyter import rounds_chart, rounds_table
    from tests.helpers import contained_corpus

    agent = contained_corpus() / "wrong" / "solve_renames_the_keys.py"
    said = "solve returns a dict without code, tests, iters: it has solution, test_code, passed, iterations, history"
    tried = try_function("solve", SPEC, agent_path=agent)
    assert tried.problem.startswith(f"{said}.\nHint: return {{'code': ..., 'tests': ..., 'passed': ..., "
                                    "'iters': ..., 'history': ...}.")
    assert repr(tried).startswith("--- ask #1") and "solve returned: a dict" in repr(tried)
    # The round-by-round cells show that, not a run that "passed after 2 round(s)".
    assert repr(rounds_table(tried)) == repr(rounds_chart(tried)) == tried.problem
    cause = checks.grade_agent(agent, steps=[4])["steps"][0]["checks"][0]
    assert f"{cause['description']}: {cause['message']}" == said
