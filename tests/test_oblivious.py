"""Access traces and the witness that two runs of a program part."""

from __future__ import annotations

import numpy as np

from pram import Machine, Read, Step, Write
from pram.circuits.oblivious import Trace, difference


def _trace(cells: list[int], steps: int = 1) -> Trace:
    """A trace of ``steps`` steps in which processors 0.. read ``a[cells]`` and write b[0]."""
    m = Machine()
    a = m.array("a", values=np.arange(4))
    b = m.array("b", size=4)
    trace = Trace()
    pid = np.arange(len(cells))
    for number in range(1, steps + 1):
        step = Step(
            pid,
            reads=[Read(a, np.array(cells))],
            writes=[Write(b, pid, 0, where=pid == 0)],
            phase="p",
        )
        trace.step(number, [step], [()])
    return trace


def test_the_same_accesses_leave_no_witness() -> None:
    """Two runs with the same processors, cells and masks do not part."""
    assert difference(_trace([0, 1]), _trace([0, 1])) is None


def test_a_different_address_is_named_with_its_step_and_processor() -> None:
    """The witness names the step, phase, processor and both addresses."""
    witness = difference(_trace([0, 1]), _trace([0, 3]))
    assert witness is not None
    assert witness.as_dict() == {
        "step": 1,
        "phase": "p",
        "processor": 1,
        "inputs": ["", ""],
        "addresses": ["read a[1]", "read a[3]"],
    }


def test_a_run_with_more_steps_parts_where_the_shorter_one_ends() -> None:
    """A run that takes an extra step is told apart by that step."""
    witness = difference(_trace([0], steps=2), _trace([0], steps=1))
    assert witness is not None
    assert (witness.step, witness.first, witness.second) == (2, "read a[0], write b[0]", "no step")
