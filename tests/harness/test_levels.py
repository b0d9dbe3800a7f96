"""harness/levels.py: one table of the isolation levels, and everything that names them reads it."""

import re

import pytest

from harness import levels, settings
from harness.errors import SettingsError
from tests.paths import ROOT


def test_every_level_says_what_it_lacks_and_what_it_means_to_each_reader():
    for name, level in levels.TABLE.items():
        assert level.name == name and isinstance(level.lacks, dict)
        assert level.student and level.instructor and level.student != level.instructor
        assert all(isinstance(wall, str) and sentence for wall, sentence in level.lacks.items())
    assert levels.TABLE[levels.NAMESPACES].lacks == {}  # the strongest lacks nothing the sandbox knows of
    assert levels.NAMES == (levels.NAMESPACES, levels.USER, levels.PROCESS)
    assert levels.LISTED == "namespaces, user or process"


def test_the_names_are_strongest_first_and_each_lacks_at_least_what_a_stronger_one_lacks():
    ranks = [levels.rank(name) for name in levels.NAMES]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    for stronger, weaker in zip(levels.NAMES, levels.NAMES[1:]):
        assert set(levels.TABLE[stronger].lacks) <= set(levels.TABLE[weaker].lacks)


def test_weaker_and_at_least_follow_the_ranks_and_distrust_a_name_that_is_no_level():
    assert levels.weaker(levels.NAMESPACES, levels.USER) == levels.USER
    assert levels.weaker(levels.PROCESS, levels.NAMESPACES) == levels.PROCESS
    assert levels.weaker(levels.NAMESPACES, "unknown") == levels.PROCESS
    assert levels.at_least(levels.NAMESPACES, levels.USER) and levels.at_least(levels.USER, levels.USER)
    assert not levels.at_least(levels.PROCESS, levels.USER)
    assert not levels.at_least("unknown", levels.PROCESS) and not levels.at_least(levels.NAMESPACES, "strong")


def test_the_settings_take_exactly_the_tables_names(monkeypatch):
    for name in levels.NAMES:
        monkeypatch.setenv("SPEC2CODE_ISOLATION", name.upper())
        monkeypatch.setenv("SPEC2CODE_REQUIRE_ISOLATION", name)
        assert settings.get("SPEC2CODE_ISOLATION") == name and settings.get("SPEC2CODE_REQUIRE_ISOLATION") == name
    assert settings.ISOLATION_LEVELS == ("auto", *levels.NAMES)
    monkeypatch.setenv("SPEC2CODE_REQUIRE_ISOLATION", "auto")  # the most a run may get, never a requirement
    with pytest.raises(SettingsError, match="is not one of: namespaces | user | process"):
        settings.get("SPEC2CODE_REQUIRE_ISOLATION")


@pytest.mark.parametrize("command", ["check", "grade"])
def test_both_commands_offer_exactly_the_tables_names(command, capsys):
    from lab.commands import main  # the front door: wherever the commands' modules live

    try:
        code = main([command, "--require-isolation", "strong"])
    except SystemExit as e:  # argparse's own way out
        code = e.code
    assert code == 2
    said = capsys.readouterr().err
    offered = re.findall(r"'(\w+)'", said.split("invalid choice: 'strong' (choose from ", 1)[1])
    assert tuple(offered) == levels.NAMES


def test_the_readmes_table_of_levels_lists_the_tables_levels_in_order_with_what_each_lacks():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    header = "| level | where | the solution and the tests each get | what it cannot enforce |"
    rows = readme.split(header, 1)[1].split("\n\n", 1)[0].strip().splitlines()[1:]  # after the |---| line
    named = {re.match(r"\| `(\w+)` \|", row).group(1): row for row in rows}
    assert tuple(named) == levels.NAMES
    for name, row in named.items():
        cannot = row.rstrip(" |").rsplit(" | ", 1)[1]
        for sentence in levels.TABLE[name].lacks.values():
            assert sentence in cannot, f"README's row for {name} does not say: {sentence}"
    assert named[levels.NAMESPACES].rstrip(" |").rsplit(" | ", 1)[1].startswith("nothing here")
