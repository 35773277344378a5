"""Two tiny fixtures: a fresh EREW machine, and a way to run one step on a machine."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from pram import Machine, Program, Step, Values


@pytest.fixture
def m() -> Machine:
    """A fresh EREW machine in collect mode, strict about undefined reads."""
    return Machine("erew")


def _steps(steps: Sequence[Step]) -> Program[list[Values]]:
    replies = []
    for step in steps:
        replies.append((yield step))
    return replies


@pytest.fixture
def run_steps() -> Callable[[Machine, Sequence[Step]], list[Values]]:
    """Run ``steps`` one after another on a machine; return what each step's reads returned."""

    def run(machine: Machine, steps: Sequence[Step]) -> list[Values]:
        return machine.run(_steps(steps))

    return run
