"""Two tiny fixtures: a fresh EREW machine, and a way to run one step on a machine; and the
environment of the processes the tests start."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence

import pytest

from pram import Machine, Program, Step, Values
from tests.helpers import EDITABLE

# A suite started in the background by a shell without job control inherits Ctrl-C ignored,
# and so would every process it starts: the tests of what Ctrl-C does would then see nothing.
# Give Ctrl-C back to Python here, so the suite and its children take it as a terminal would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# Against a regular install, the Python processes the tests start (``python -m pram.reports.cli``,
# ``python -c``, a notebook's kernel) run from the checkout, whose pram/ folder would come first
# on their sys.path and shadow the installed package (without pram.algorithms and
# pram.reports): keep the current folder off their path, as the tests' own imports are
# (pytest's importlib mode).
if not EDITABLE:
    os.environ["PYTHONSAFEPATH"] = "1"


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
