"""checks/runner/loading: what stopped agent.py's import, said once for every surface."""

from checks.runner import loading


def info(kind, message="", line=None, **more):
    return {"type": kind, "message": message, "line": line, **more}


def test_a_syntax_error_names_its_line_and_where_else_to_look():
    failed = loading.failed("agent.py", info("IndentationError", "unexpected indent", 7))
    assert str(failed) == "agent.py has a syntax error on line 7: unexpected indent"
    assert "look just before it too" in failed.hint


def test_an_exit_at_import_says_which_call_and_how_to_fix_it():
    failed = loading.failed("agent.py", info("SystemExit", line=3, exit=2))
    assert str(failed) == "agent.py called exit(2) while loading on line 3." and failed.hint == loading.EXIT_HINT
    assert loading.exit_call({"exit": None}) == "exit()"


def test_any_other_exception_at_import_points_at_the_top_level_code():
    failed = loading.failed("mine.py", info("ImportError", "No module named 'numpy'", 1))
    assert str(failed) == "mine.py raised ImportError on line 1 while loading: No module named 'numpy'"
    assert failed.hint == "code at the top level of agent.py runs on import: check that line"
