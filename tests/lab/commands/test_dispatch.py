"""The spec2code command: its dispatcher, help, and one-line errors for bad settings."""

from lab import commands as cli


def test_help_lists_every_command(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert f"  {name}" in out


def test_an_unknown_command_is_a_usage_error(capsys):
    assert cli.main(["frobnicate"]) == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err


def test_a_misspelt_setting_stops_every_command_with_one_line(monkeypatch, capsys):
    monkeypatch.setenv("SPEC2CODE_MODLE", "live")
    assert cli.main(["check", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spec2code check: Unknown setting SPEC2CODE_MODLE. Did you mean SPEC2CODE_MODEL?")
    assert "Traceback" not in err and err.count("\n") == 1


def test_every_command_module_has_a_main():
    import importlib

    for module, _ in cli.COMMANDS.values():
        assert callable(importlib.import_module(module).main), module


def test_the_cli_dispatches_check_reset_and_compare():
    assert {name: cli.COMMANDS[name][0] for name in ("check", "reset", "compare")} == {
        "check": "lab.commands.check",
        "reset": "lab.commands.reset",
        "compare": "lab.commands.compare",
    }


def test_sigterm_stops_a_command_as_ctrl_c_does_with_one_line_and_no_traceback(monkeypatch, capsys):
    import os
    import signal
    import time

    from lab.commands import compare

    def terminated(argv):
        os.kill(os.getpid(), signal.SIGTERM)  # as `kill` or `timeout` sends it
        time.sleep(10)
        return 0

    before = signal.getsignal(signal.SIGTERM)
    monkeypatch.setattr(compare, "main", terminated)
    started = time.monotonic()
    assert cli.main(["compare"]) == 130 and time.monotonic() - started < 5
    assert capsys.readouterr().err == "\nspec2code compare: interrupted\n"
    assert signal.getsignal(signal.SIGTERM) is before  # as it was once the command is done
