"""Shared test setup: every test starts from the lab's defaults, whatever the developer's shell has set."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytest_plugins = ["tests.parallel"]  # how `make test` shares the tests out to every core


def pytest_configure(config):
    # A developer's live-model settings must not change what the suite checks.
    for name in list(os.environ):
        if name.startswith(("SPEC2CODE_", "OPENAI_")):
            del os.environ[name]


@pytest.fixture
def project_root():
    return ROOT
