"""`spec2code try`: the rounds and the held-out verdict it prints, and one clear line for each kind of bad input."""

import pytest

from lab.commands import try_agent as try_command
from lab.commands.try_agent import REFERENCE_AGENT

STUB = '''\
import harness


def extract_code(reply):
    """Step 1."""
    raise NotImplementedError


def write_tests(spec, ask=harness.ask):
    raise NotImplementedError


def write_solution(spec, ask=harness.ask, feedback=""):
    raise NotImplementedError


def solve(spec, ask=harness.ask, max_iters=4):
    """Step 4."""
    raise NotImplementedError


def holdout_check(solution_src):
    raise NotImplementedError
'''


def with_solve(body):
    """The stub agent, with one line as the body of solve."""
    return STUB.replace('    """Step 4."""\n    raise NotImplementedError', "    " + body)


def run_try(capsys, *argv):
    code = try_command.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_the_reference_agent_with_the_offline_model_solves_and_generalises(capsys):
    code, out, err = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--model", "offline")
    assert (code, err) == (0, "")
    assert "Model: offline (scripted, no network)" in out
    assert "Attempt 1: 10/11 tests passed — failing: test_centuries_are_not_leap_years\n" in out
    assert "Attempt 2: 11/11 tests passed\n" in out
    assert "Attempt 3" not in out
    assert "The visible tests pass after 2 attempts." in out
    assert out.rstrip().endswith("Held-out tests: 9/9 passed. The solution generalises.")


@pytest.mark.slow
def test_the_gaming_model_goes_green_on_its_tests_and_is_caught_by_the_held_out_ones(capsys):
    code, out, err = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--model", "gaming")
    assert (code, err) == (1, "")
    assert "Model: gaming (scripted, games the tests)" in out
    assert "Attempt 2: 11/11 tests passed\n" in out
    assert "if year in (1900, 2100):" in out  # the final code is shown, special cases and all
    assert (
        "Held-out tests: 6/9 passed — failing: test_centuries_are_common_years, test_far_future_years, "
        "test_inputs_drawn_for_this_run_agree_with_the_spec. "
        "The visible tests went green but the held-out tests did not: the model fitted the tests instead of "
        "solving the problem. This is what step 5 guards against."
    ) in out


@pytest.mark.slow
def test_one_attempt_is_not_enough_for_the_honest_model(capsys):
    code, out, _ = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--max-iters", "1")
    assert code == 1
    assert "The visible tests still fail after 1 attempt." in out
    assert (
        "Held-out tests: 6/9 passed — failing: test_centuries_are_common_years, test_far_future_years, "
        "test_inputs_drawn_for_this_run_agree_with_the_spec. "
        "The visible tests did not pass either: the agent did not solve the problem."
    ) in out


@pytest.mark.slow
def test_the_model_option_lasts_only_for_the_run(capsys, monkeypatch):
    monkeypatch.setenv("SPEC2CODE_MODEL", "offline")
    run_try(capsys, "--agent", str(REFERENCE_AGENT), "--model", "gaming")
    import os

    assert os.environ["SPEC2CODE_MODEL"] == "offline"


def test_the_agent_can_come_from_the_environment(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SPEC2CODE_AGENT", str(tmp_path / "from_env.py"))
    code, out, err = run_try(capsys)
    assert code == 2 and out == ""
    missing = tmp_path / "from_env.py"
    assert err == f"spec2code try: no agent file at {missing}. Check the path, or try --agent solutions/agent.py.\n"


def test_a_missing_agent_file_is_one_line(capsys, tmp_path):
    code, out, err = run_try(capsys, "--agent", str(tmp_path / "agent.py"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no agent file at" in err and "Traceback" not in err


def test_a_relative_agent_path_is_read_from_the_current_folder(capsys, monkeypatch, tmp_path):
    (tmp_path / "mine.py").write_text(STUB)
    monkeypatch.chdir(tmp_path)
    code, _, err = run_try(capsys, "--agent", "mine.py")
    assert code == 2 and err.startswith("spec2code try: step 4 (solve) is not started yet: ") and "(mine.py line" in err


def test_a_syntax_error_names_the_file_and_line(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text("import harness\n\n\ndef extract_code(reply)\n    return reply\n")
    code, out, err = run_try(capsys, "--agent", str(agent))
    assert code == 2 and out == ""
    assert err.startswith("spec2code try: agent.py has a syntax error on line 4: ")
    assert err.count("\n") == 1 and "Hint: fix that line" in err


def test_an_error_at_import_names_the_file_and_line(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text("import harness\n\nMODEL = harness.no_such_thing\n")
    code, _, err = run_try(capsys, "--agent", str(agent))
    assert code == 2
    assert err.startswith("spec2code try: agent.py raised AttributeError on line 3 while loading: ")


def test_a_step_not_started_says_which_and_where_to_look(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(STUB)
    code, out, err = run_try(capsys, "--agent", str(agent))
    assert code == 2
    assert err == (
        "spec2code try: step 4 (solve) is not started yet: solve still raises NotImplementedError (agent.py line 19). "
        "Hint: replace that raise line with your code; or try --agent solutions/agent.py to see the reference.\n"
    )


def test_a_step_that_calls_a_stub_names_the_stub(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(with_solve("return write_tests(spec, ask)"))
    code, _, err = run_try(capsys, "--agent", str(agent))
    assert code == 2
    assert err.startswith("spec2code try: solve calls step 2 (write_tests), which still raises NotImplementedError "
                          "(agent.py line 10). Hint: write step 2 (write_tests) first: ")


def test_a_crash_in_a_step_is_one_line_with_the_place(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(with_solve('return {}["code"]'))
    code, _, err = run_try(capsys, "--agent", str(agent))
    assert code == 2
    assert err == ("spec2code try: solve raised KeyError (agent.py line 18): 'code'. Hint: read the error and the "
                   "line it names: what did that line do with the value it was given?\n")


def test_a_solve_that_returns_the_wrong_shape_is_named(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(with_solve("return 'done'"))
    code, _, err = run_try(capsys, "--agent", str(agent))
    assert code == 2
    assert err == (
        "spec2code try: solve returns 'done', not a dict. "
        "Hint: return a dict with the keys code, tests, passed, iters and history.\n"
    )


BIDI = "".join(map(chr, [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


@pytest.mark.slow
def test_bidirectional_controls_in_the_code_are_shown_escaped_so_the_reviewer_reads_what_ran(capsys, tmp_path):
    trojan = 'def is_leap_year(year):\n    if "user\u202e \u2066# admin\u2069 \u2066" != "user":\n        return True\n'
    agent = tmp_path / "agent.py"
    agent.write_text(with_solve(
        f"code = {trojan!r}\n    result = harness.run(code, 'def test_a():\\n    assert is_leap_year(2024)\\n')\n"
        "    return {'code': code, 'tests': '', 'passed': True, 'iters': 1, 'history': [{'code': code, "
        "'result': result}]}"
    ).replace("def holdout_check(solution_src):\n    raise NotImplementedError",
              "def holdout_check(solution_src):\n    return ['test_\\u202eevil']"), encoding="utf-8")
    code, out, err = run_try(capsys, "--agent", str(agent))
    assert err == "" and not set(out) & set(BIDI)
    assert '    if "user\\u202e \\u2066# admin\\u2069 \\u2066" != "user":\n' in out
    assert "Your holdout_check said: test_\\u202eevil fails" in out


def test_a_lab_error_from_the_model_is_its_message(capsys, monkeypatch):
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    monkeypatch.setenv("SPEC2CODE_CACHE_DIR", "/nonexistent/spec2code-cache")
    code, out, err = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--model", "live")
    assert code == 2
    assert err.startswith("spec2code try: Replay mode (SPEC2CODE_REPLAY=1)") and err.count("\n") == 1


def test_a_typo_in_a_setting_is_one_line(capsys, monkeypatch):
    monkeypatch.setenv("SPEC2CODE_MODLE", "gaming")
    code, _, err = run_try(capsys, "--agent", str(REFERENCE_AGENT))
    assert code == 2
    assert err.startswith("spec2code try: Unknown setting SPEC2CODE_MODLE. Did you mean SPEC2CODE_MODEL?")


def test_the_default_agent_is_the_reference_until_every_lab_step_is_started(monkeypatch, tmp_path):
    lab = tmp_path / "agent.py"
    monkeypatch.setattr(try_command, "LAB_AGENT", lab)
    path, note = try_command._choose_agent(None)
    assert path == REFERENCE_AGENT and note == f"the reference, because {lab} does not exist"
    lab.write_text(STUB)
    path, note = try_command._choose_agent(None)
    assert path == REFERENCE_AGENT
    assert note == f"the reference, because step 1 (extract_code) is not started yet in {lab} " + (
        f"(--agent {lab} runs yours)"
    )
    lab.write_text(REFERENCE_AGENT.read_text())
    assert try_command._choose_agent(None) == (lab, "")


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_max_iters_must_be_a_positive_whole_number(capsys, value):
    with pytest.raises(SystemExit) as exit_:
        try_command.main(["--max-iters", value])
    assert exit_.value.code == 2
    assert "is not a whole number of attempts" in capsys.readouterr().err


def test_help_lists_the_options_and_settings(capsys):
    with pytest.raises(SystemExit):
        try_command.main(["--help"])
    out = capsys.readouterr().out
    assert "--agent PATH" in out and "--model {offline,gaming,live}" in out and "SPEC2CODE_MODEL" in out


@pytest.mark.slow
def test_another_task_is_solved_and_judged_on_its_own_held_out_tests(capsys):
    code, out, err = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--task", "parse_duration")
    assert (code, err) == (0, "")
    assert "Task: Parse a duration (parse_duration)" in out
    assert "Attempt 3: 15/15 tests passed\n" in out and "The visible tests pass after 3 attempts." in out
    assert out.rstrip().endswith("Held-out tests: 21/21 passed. The solution generalises.")


def test_an_unknown_task_lists_the_tasks(capsys):
    code, out, err = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--task", "fizzbuzz")
    assert code == 2 and out == ""
    assert err.startswith("spec2code try: There is no task 'fizzbuzz': use one of leap_year, median,")


@pytest.mark.slow
def test_the_review_flags_special_cases_and_the_trail_is_written(capsys, tmp_path):
    trail = tmp_path / "trail.jsonl"
    code, out, _ = run_try(capsys, "--agent", str(REFERENCE_AGENT), "--model", "gaming", "--trail", str(trail))
    assert code == 1
    assert "Review: line 5: special-cases inputs of the visible tests: 1900, 2100\n" in out
    assert f"Trail: {trail} (3 asks, 2 runs); read it with: spec2code trail {trail}\n" in out
    events = [line for line in trail.read_text().splitlines()]
    assert len(events) == 1 + 3 + 2 + 1  # start, the asks, the runs, the verdict


@pytest.mark.slow
def test_the_held_out_verdict_is_measured_by_the_lab_not_taken_from_the_agent(capsys, tmp_path):
    agent = tmp_path / "agent.py"
    agent.write_text(REFERENCE_AGENT.read_text() + "\n\ndef holdout_check(solution_src):\n    return []\n")
    code, out, _ = run_try(capsys, "--agent", str(agent), "--model", "gaming")
    assert code == 1
    assert "Your holdout_check said: nothing fails; the lab's own run of the held-out tests says otherwise" in out
    assert ("Held-out tests: 6/9 passed — failing: test_centuries_are_common_years, test_far_future_years, "
            "test_inputs_drawn_for_this_run_agree_with_the_spec.") in out


def test_replay_mode_says_it_replays_recorded_live_replies(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SPEC2CODE_REPLAY", "1")
    monkeypatch.setenv("SPEC2CODE_CACHE_DIR", str(tmp_path / "class-cache"))
    monkeypatch.setattr(try_command.measure, "call", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    code, out, _ = run_try(capsys, "--agent", str(REFERENCE_AGENT))
    assert code == 130
    assert "Model: replay of recorded live replies (gpt-4o-mini) from " in out and "Model: offline" not in out
