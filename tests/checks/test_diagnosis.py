"""checks/diagnosis.py: one failure of a learner's function, one diagnosis, whichever surface shows it.

Each case is the reference agent with one change, saved under a name of its own (not agent.py). It is sent through
`spec2code check` (the engine), `spec2code try`, the try cell and `python lab/try_it.py`, and each must find the
same kind, step, line and hint, and show the hint and the place in its own words.
"""

import dataclasses
import re
from dataclasses import dataclass

import pytest

import checks
from checks import steps
from checks.diagnosis import EXIT_HINT, KINDS, STUB_HINT, Diagnosis, blocked, diagnose, returned, sentence
from checks.runner import Crashed, NotStarted, Raised, TimedOut
from checks.steps import BY_NUMBER
from harness import SPEC
from lab import measure, try_it
from lab.commands import try_agent
from lab.jupyter import try_function
from tests.paths import REFERENCE_AGENT

REFERENCE = REFERENCE_AGENT.read_text(encoding="utf-8")
STUB = 'raise NotImplementedError("step {} is not started yet: replace this line with your code")'
RAISED = "read the error and the line it names: what did that line do with the value it was given?"


@dataclass(frozen=True)
class Case:
    name: str
    changes: tuple  # (old text of the reference, new text), applied in order
    marker: str | None  # the text of the line the diagnosis must name (its first line holding it), if any
    kind: str
    step: int | None
    hint: str
    call: tuple = ("solve", SPEC)  # what the try cell calls
    graded: int = 4  # the step `spec2code check` grades

    def source(self) -> str:
        text = REFERENCE
        for old, new in self.changes:
            assert old in text, (self.name, old)
            text = text.replace(old, new, 1)
        return text

    def line(self, source: str) -> int | None:
        if self.marker is None:
            return None
        return next(n for n, line in enumerate(source.splitlines(), 1) if self.marker in line)


EXTRACT = "    match = _FENCE.search(reply)\n"
TESTS_WRITTEN = "    tests = write_tests(spec, ask)\n"
HOLDOUT = '    return harness.run(solution_src, harness.HOLDOUT_TESTS)["failed"]'
SOLVED = '    return {"code": code, "tests": tests, "passed": passed, "iters": len(history), "history": history}'
SOLVE_BODY = REFERENCE[REFERENCE.index(TESTS_WRITTEN):REFERENCE.index(SOLVED) + len(SOLVED)]

CASES = [
    Case("syntax_error", (("import harness\n", "import harness\n\n\ndef broken(:\n    pass\n"),), "def broken(:",
         "syntax error", None,
         "fix that line (look just before it too: an unclosed bracket or quote shows up on the next line)",
         call=("extract_code", "x"), graded=1),
    Case("raises_at_import", ((HOLDOUT, HOLDOUT + "\n\n\nLIMIT = int('many')"),), "LIMIT = int(", "load error", None,
         "code at the top level of agent.py runs on import: check that line", call=("extract_code", "x"), graded=1),
    Case("exits_at_import", ((HOLDOUT, HOLDOUT + "\n\n\nimport sys\n\nsys.exit(3)"),), "sys.exit(3)", "load error",
         None, "remove the exit() or sys.exit() call: agent.py must only define functions", call=("extract_code", "x"),
         graded=1),
    Case("value_error_in_step_1", ((EXTRACT, '    raise ValueError("cannot read this reply")\n' + EXTRACT),),
         "raise ValueError(", "raised", 1, RAISED, graded=1),
    Case("helper_not_written", (
        ("\n\ndef extract_code(reply):", '\n\ndef _helper():\n    raise NotImplementedError("todo: a helper")\n\n\n'
                                         "def extract_code(reply):"),
        (EXTRACT, "    _helper()\n" + EXTRACT)),
         'raise NotImplementedError("todo: a helper")', "raised", 1,
         "finish _helper: that line still raises NotImplementedError", graded=1),
    Case("calls_a_later_stub", (
        (HOLDOUT, "    " + STUB.format("5 (holdout_check)")),
        ("        code = write_solution(spec, ask_anew, feedback)\n",
         "        code = write_solution(spec, ask_anew, feedback)\n        holdout_check(code)\n")),
         STUB.format("5 (holdout_check)"), "calls a stub", 5,
         f"write step 5 (holdout_check) first: {STUB_HINT}"),
    Case("cpu_loop_in_solve", ((TESTS_WRITTEN, TESTS_WRITTEN + "    while True: pass\n"),), "    while True: pass",
         "timed out", 4, BY_NUMBER[4].hang_hint),
    Case("ask_limit_loop_in_solve",
         ((TESTS_WRITTEN, TESTS_WRITTEN + "    while True:\n        write_solution(spec, ask)\n"),),
         "        write_solution(spec, ask)", "loop limit", 4,
         "solve asks or runs far more than it needs: look at the loop on that line"),
    Case("sys_exit_in_step_1", (("import re\n", "import re\nimport sys\n"), (EXTRACT, "    sys.exit(3)\n" + EXTRACT)),
         "sys.exit(3)", "exited", 1, EXIT_HINT, graded=1),
    Case("os_exit_in_solve", (("import re\n", "import os\nimport re\n"), (TESTS_WRITTEN, "    os._exit(3)\n")), None,
         "exited", 4, EXIT_HINT),
    Case("aborts_its_process", (("import re\n", "import os\nimport re\n"), (TESTS_WRITTEN, "    os.abort()\n")), None,
         "crashed", 4, "look for code that stops, kills or crashes its own process (os.kill, signal, ctypes); "
         "return a value"),
    Case("holdout_returns_a_str", ((HOLDOUT, '    return ", ".join(harness.run(solution_src, harness.HOLDOUT_TESTS)'
                                             '["failed"])'),), None,
         "wrong return", 5, "return the names of the failing tests as a list of str",
         call=("holdout_check", "def is_leap_year(year):\n    return True\n"), graded=5),
    Case("holdout_asks_the_model", ((HOLDOUT, "    tests = write_tests(harness.SPEC)\n"
                                               '    return harness.run(solution_src, tests)["failed"]'),),
         "    tests = write_tests(harness.SPEC)", "raised", 5, BY_NUMBER[5].without_model,
         call=("holdout_check", "def is_leap_year(year):\n    return True\n"), graded=5),
    Case("changed_parameters", (("def extract_code(reply):", "def extract_code(reply, tag):"),),
         "def extract_code(reply, tag):", "wrong parameters", 1,
         "keep the parameters of the stub (same names, same defaults), and call functions that way", graded=1),
    Case("solve_returns_wrong_keys", ((SOLVED, '    return {"tests": tests, "passed": passed, "history": history}'),),
         None, "wrong return", 4, "return {'code': ..., 'tests': ..., 'passed': ..., 'iters': ..., 'history': ...}"),
    Case("solve_not_started", ((SOLVE_BODY, "    " + STUB.format("4 (solve)")),), STUB.format("4 (solve)"),
         "not started", 4, STUB_HINT),
]
MADE_UP = re.compile(r"(?<![\w/.-])agent\.py(?: line |:)\d")  # a place in a file named agent.py, not this one
WAITING = ("not started", "calls a stub")  # where try_it stops with status 0: the next step to write


@pytest.fixture(params=CASES, ids=lambda case: case.name)
def case(request, tmp_path, monkeypatch):
    case = request.param
    path = tmp_path / f"{case.name}_agent.py"
    path.write_text(case.source(), encoding="utf-8")
    if case.kind == "timed out":  # a second, not the 10 s a try of solve may take
        monkeypatch.setitem(steps.BY_FUNCTION, "solve", dataclasses.replace(steps.BY_FUNCTION["solve"], time_limit=1.0))
    return case, path


def test_the_table_covers_every_kind_a_call_can_end_in():
    assert {case.kind for case in CASES} == set(KINDS) - {"blocked"}  # a step, not a call: see test_engine
    assert len(CASES) >= 12
    with pytest.raises(ValueError, match="not a kind of diagnosis"):
        Diagnosis("broke", "m", "h")


@pytest.mark.slow
def test_every_surface_finds_the_same_diagnosis_and_shows_it(case, capsys, monkeypatch):
    case, path = case
    line = case.line(path.read_text(encoding="utf-8"))
    quick = 1.0 if case.kind == "timed out" else None
    found = {"check": _checked(path, case.graded, quick), "try": _tried_command(path, capsys, monkeypatch),
             "try cell": _tried_in_a_cell(path, case.call, quick), "try_it": _tried_it(path, capsys, monkeypatch)}
    for surface, (kind, step, at, hint, text) in found.items():
        assert (kind, step, at, hint) == (case.kind, case.step, line, case.hint), surface
        assert hint in text, (surface, text)
        if line is not None:  # at the file's own name, never a made-up "agent.py"
            assert path.name in text and f"line {line}" in text and not MADE_UP.search(text), (surface, text)


def _checked(path, graded: int, timeout):
    """`spec2code check N`: the step's first line is the cause, with its diagnosis."""
    step = checks.grade_agent(path, steps=[graded], timeout=timeout)["steps"][0]
    first = step["checks"][0]
    said = first["diagnosis"]
    text = f"{first['description']}\n{first['message']}\nhint: {first['hint']}"
    return said["kind"], said["step"], said["line"], first["hint"], text


def _tried_command(path, capsys, monkeypatch):
    """`spec2code try`: it stops with one line, and exit status 2."""
    seen, original = [], measure.refusal
    monkeypatch.setattr(measure, "refusal", lambda found, called=None: seen.append(found) or original(found, called))
    assert try_agent.main(["--agent", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return _said(seen, err)


def _tried_in_a_cell(path, call, timeout):
    tried = try_function(*call, agent_path=path, timeout=timeout)
    assert not tried.ok and tried.diagnosis is not None
    return _said([tried.diagnosis], tried.problem)


def _tried_it(path, capsys, monkeypatch):
    """`python lab/try_it.py`: it stops at the step, with status 0 at a step still to write and 1 on a problem."""
    seen, original = [], try_it.Stop.at.__func__
    monkeypatch.setattr(try_it.Stop, "at", classmethod(lambda cls, found, called=None: seen.append(found) or
                                                       original(cls, found, called)))
    code = try_it.main(["--agent", str(path)])
    out = capsys.readouterr().out
    assert code == (0 if seen and seen[0].kind in WAITING else 1), out
    return _said(seen, out)


def _said(seen: list, text: str):
    (found,) = seen
    return found.kind, found.step, found.line, found.hint, text


# The rules themselves, on outcomes made by hand (no agent process).

def test_a_stub_called_by_another_step_is_that_step_not_started_and_a_helper_is_unfinished_code():
    stub = {"type": "NotImplementedError", "message": "todo", "line": 9, "source": "raise NotImplementedError",
            "in": "write_tests", "stub": True, "frames": [("solve", 30), ("write_tests", 9)]}
    calls = diagnose(Raised("solve", stub), "solve", "mine.py")
    assert (calls.kind, calls.step, calls.function, calls.line) == ("calls a stub", 2, "write_tests", 9)
    helper = dict(stub, **{"in": "_helper", "frames": [("solve", 30), ("write_tests", 12), ("_helper", 9)]})
    raised = diagnose(Raised("solve", helper), "solve", "mine.py")
    assert (raised.kind, raised.step, raised.function, raised.line) == ("raised", 2, "write_tests", 9)
    assert raised.message == "solve raised NotImplementedError in _helper (mine.py line 9): todo"
    assert raised.headline == "solve raised NotImplementedError in _helper (mine.py line 9)"
    assert raised.elsewhere("solve") == "step 2 (write_tests)" and raised.elsewhere("write_tests") == ""


def test_a_loop_is_placed_at_the_called_functions_own_line():
    info = {"type": "RuntimeError", "message": "ask was called more than 50 times in one call: is it in a loop?",
            "line": 40, "source": "return extract_code(ask(prompt))", "in": "write_solution", "stub": False,
            "frames": [("solve", 12), ("write_solution", 40)]}
    source = "\n" * 11 + "        write_solution(spec, ask)\n"
    found = diagnose(Raised("solve", info), "solve", "mine.py", source=source)
    assert (found.kind, found.step, found.line, found.source) == ("loop limit", 4, 12, "write_solution(spec, ask)")


def test_a_timeout_says_how_much_of_it_the_runs_it_asked_for_counted():
    source = "\n" * 44 + "    return harness.run(solution_src, HANGS)['failed']\n"
    stopped = TimedOut("holdout_check took more than 10 s", limit=10.0, frames=[("holdout_check", 45)], counted=28.4)
    found = diagnose(stopped, "holdout_check", "mine.py", source=source)
    assert (found.kind, found.step, found.line) == ("timed out", 5, 45)
    assert found.message == ("holdout_check ran for more than 10 s, counting 28 s of the runs it asked for, and was "
                             "stopped (mine.py line 45)")
    quick = diagnose(TimedOut("", limit=10.0, frames=[("holdout_check", 45)]), "holdout_check", "mine.py",
                     source=source)
    assert quick.message == "holdout_check ran for more than 10 s and was stopped (mine.py line 45)"


def test_a_signature_that_is_not_the_stubs_is_placed_at_its_def():
    info = {"type": "TypeError", "message": "extract_code() missing 1 required positional argument: 'tag'",
            "line": 20, "source": "return extract_code(ask(prompt))", "in": "write_tests", "stub": False,
            "frames": [("solve", 30), ("write_tests", 20)]}
    source = "import harness\n\n\ndef extract_code(reply, tag):\n    return reply\n"
    found = diagnose(Raised("solve", info), "solve", "mine.py", source=source)
    assert (found.kind, found.step, found.line) == ("wrong parameters", 1, 4)
    assert found.headline == "extract_code takes (reply, tag), but the stub takes (reply) (mine.py line 4)"
    kept = diagnose(Raised("solve", info), "solve", "mine.py", source="def extract_code(reply):\n    pass\n")
    assert (kept.step, kept.line) == (2, 20)  # the def is the stub's: the call on that line does not fit it


def test_a_stop_a_crash_and_an_exit_are_the_called_functions():
    hung = diagnose(TimedOut("", limit=3.0), "write_tests", "mine.py")
    assert (hung.kind, hung.step, hung.message) == ("timed out", 2, "write_tests ran for more than 3 s and was stopped")
    assert diagnose(Crashed("its process exited with code 3", 3), "solve", "mine.py").kind == "exited"
    killed = diagnose(Crashed("its process was killed by SIGSEGV"), "solve", "mine.py")
    assert killed.message == "solve stopped without a result: its process was killed by SIGSEGV"
    stub = diagnose(NotStarted("", {"line": 7, "source": "raise NotImplementedError"}), "holdout_check", "mine.py")
    assert (stub.kind, stub.step, stub.line, stub.hint) == ("not started", 5, 7, STUB_HINT)


def test_a_value_that_breaks_the_contract_says_how():
    assert returned("extract_code", "x = 1", "a.py") is None and returned("holdout_check", [], "a.py") is None
    assert returned("extract_code", None, "a.py").message == "extract_code returns None, not a str"
    keys = returned("solve", {"tests": "", "passed": True}, "a.py")
    assert keys.headline == "solve returns a dict without code, iters, history"
    assert returned("holdout_check", 2, "a.py").hint == "return the names of the failing tests, not how many there are"
    assert returned("holdout_check", {"failed": []}, "a.py").hint.endswith("not the whole run result")
    assert returned("which", 2, "a.py") is None  # a function that is not a step's has no contract


def test_a_blocked_step_and_the_frames_sentence():
    waiting = blocked(BY_NUMBER[4], BY_NUMBER[1], "a.py")
    assert (waiting.kind, waiting.step, waiting.message) == ("blocked", 4, "blocked until step 1 (extract_code) passes")
    assert sentence("is it in a loop?") == "is it in a loop?" and sentence("stop") == "stop."
    assert Diagnosis("raised", "m", "h", 1, "extract_code", "a.py", 3, "x").data() == {
        "kind": "raised", "step": 1, "function": "extract_code", "file": "a.py", "line": 3, "source": "x"}


def test_a_step_with_no_model_that_asks_one_is_named_at_its_own_line(tmp_path):
    from tests.helpers import contained_corpus

    agent = contained_corpus() / "wrong" / "holdout_runs_the_models_tests.py"
    line = agent.read_text().splitlines().index("    tests = write_tests(harness.SPEC)") + 1
    cause, *others = checks.grade_agent(agent, steps=[5])["steps"][0]["checks"]
    headline = f"holdout_check asks a model through write_tests ({agent.name} line {line})"
    assert cause["description"] == headline  # the call in holdout_check, not the ask inside write_tests
    assert cause["message"] == f"step 5 (holdout_check) has no model to ask\nline {line}: tests = write_tests(harness.SPEC)"
    assert cause["hint"] == ("step 5 runs the held-out tests (harness.HOLDOUT_TESTS), not new tests from the model: "
                             "harness.run(solution_src, harness.HOLDOUT_TESTS)")
    assert cause["diagnosis"]["step"] == 5 and len(others) == 4
    assert all(c["message"] == f"follows from: {headline} (fix that first)" and c["hint"] == "" for c in others)
