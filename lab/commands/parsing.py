"""The commands' one option parser: a bad option is one line saying what is wrong and where the options are."""

from __future__ import annotations

import argparse
import functools


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a usage error prints `COMMAND: what is wrong (see PROG --help)` and exits with 2,
    instead of argparse's usage block. A subcommand's parser names the command it belongs to and its own --help."""

    def __init__(self, *args, command: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.command = command or self.prog

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("parser_class", functools.partial(Parser, command=self.command))
        return super().add_subparsers(**kwargs)

    def error(self, message: str):
        self.exit(2, f"{self.command}: {message.rstrip('.')} (see {self.prog} --help)\n")
