"""A package's exports, each imported from the module that defines it on first use (PEP 562)."""

from __future__ import annotations

import importlib
import sys


def on_first_use(package: str, homes: dict[str, str]):
    """`__getattr__` and `__dir__` for `package`: each name in `homes` is taken from the module there (relative to
    the package) when first asked for, and kept; any other public name is one of the package's modules."""

    def __getattr__(name: str):
        if name in homes:
            value = getattr(importlib.import_module(f".{homes[name]}", package), name)
            setattr(sys.modules[package], name, value)
            return value
        if not name.startswith("_"):
            try:
                return importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        module = sys.modules[package]
        return sorted(set(vars(module)) | set(getattr(module, "__all__", ())))

    return __getattr__, __dir__
