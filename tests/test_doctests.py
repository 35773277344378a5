"""Every module's docstring examples give what they print: one doctest run per module.

The newer algorithm modules run their own examples in their test files; this collects the
examples of every module of the three floors, so an example that goes stale fails somewhere.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import pram
import pram.algorithms
import pram.reports


def modules_with_examples() -> list[str]:
    """The modules of pram, pram.algorithms and pram.reports whose source holds a ``>>>``."""
    names = []
    for package in (pram, pram.algorithms, pram.reports):
        for folder in package.__path__:
            for info in pkgutil.walk_packages([folder], f"{package.__name__}."):
                if info.name.startswith(("pram.algorithms", "pram.reports")) and \
                        package is pram:
                    continue  # (their own floors collect them)
                parts = info.name.split(".")[1:] if package is pram else info.name.split(
                    ".")[2:]
                source = Path(folder, *parts, "__init__.py") if info.ispkg else Path(
                    folder, *parts[:-1], f"{parts[-1]}.py")
                if ">>> " in source.read_text():
                    names.append(info.name)
    return sorted(names)


MODULES = modules_with_examples()


def test_the_examples_are_found() -> None:
    """The collection reaches all three floors (a wrong path would collect nothing)."""
    assert {"pram.testing", "pram.algorithms.compaction", "pram.reports.assertions"} <= set(
        MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_the_module_examples_run(name: str) -> None:
    """The module's examples run and print what their docstrings show."""
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0, f"{name} has '>>> ' in its source but no example doctest finds"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
