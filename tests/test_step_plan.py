"""A step yielded again takes the fast path's plan, and answers as a fresh step would.

The fast path plans the last single steps it took twice whose processors, indices and values
all live in immutable memory (:meth:`pram.engine.fast.FastPath._plan`): yielded again, the step
skips the tests that read only those (types, order, bounds, the ports meeting at no cell) and
runs again the tests that read anything else. Here the same step object, yielded many times,
must give the same replies, memory, ledger and verdicts as a fresh copy of it each time and as
the general path; and each thing the plan does not fix (the array freed and made again, an
undefined cell, the model, a field swapped behind the frozen step's back) must be tested anew.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import numpy as np
import pytest

from pram import AddressError, HonestyError, Machine, Read, Step, StepError, Write
from pram.registers import contents


def _planned(run: Any) -> int:
    """How many steps ``run()`` took by a plan."""
    calls = [0]

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "return" and frame.f_code.co_name == "_planned" and arg is not None:
            calls[0] += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return calls[0]


def _run(fast_path: bool, fresh: bool, model: str = "erew", steps: int = 5) -> dict[str, Any]:
    m = Machine(model, fast_path=fast_path)
    a = m.array("a", values=np.arange(8))
    b = m.array("b", size=16)
    pid = m.processors(8)
    cells = np.frombuffer(np.arange(8, dtype=np.int64).tobytes(), dtype=np.int64)[::-1]
    same = Step(pid, reads=(Read(a, pid),), writes=(Write(b, pid, pid),), phase="x")
    got: list[Any] = []

    def program() -> Any:
        for k in range(steps):
            step = Step(pid, reads=(Read(a, pid),), writes=(Write(b, pid, pid),),
                        phase="x") if fresh else same
            (x,) = yield step
            got.append(x)
            yield Step(pid, reads=(Read(b, cells),), writes=(Write(a, pid, k),))

    m.run(program())
    return {"got": [contents(x).tolist() for x in got], "a": a.to_numpy().tolist(),
            "b": b.to_numpy().tolist(), "cost": m.cost, "violations": m.violations}


@pytest.mark.parametrize("model", ["erew", "crew", "crcw-common"])
def test_a_step_yielded_again_answers_as_a_fresh_one(model: str) -> None:
    planned = _run(True, False, model)
    assert _planned(lambda: _run(True, False, model)) == 3  # every yield after the second
    assert _planned(lambda: _run(True, True, model)) == 0
    assert planned == _run(True, True, model) == _run(False, False, model)
    assert planned["cost"].time == 10 and planned["cost"].phases["x"].work == 40


def _loop(step: Step, count: int) -> Any:
    for _ in range(count):
        yield step


def test_a_freed_array_made_again_is_tested_again() -> None:
    m = Machine()
    a = m.array("a", values=np.arange(8))
    pid = m.processors(8)
    step = Step(pid, reads=(Read(a, pid),))
    assert _planned(lambda: m.run(_loop(step, 3))) == 1
    m.free(a)
    m.array("a", values=np.arange(8))  # another array under the same name
    with pytest.raises((StepError, HonestyError)):
        m.run(_loop(step, 1))


def test_an_undefined_cell_is_reported_at_every_yield() -> None:
    m = Machine(strict=False)
    a = m.array("a", size=8)  # undefined cells
    b = m.array("b", size=8)
    pid = m.processors(4)
    low = np.frombuffer(np.arange(4, dtype=np.int64).tobytes(), dtype=np.int64)
    step = Step(pid, reads=(Read(a, low),), writes=(Write(b, low, 1),))
    assert _planned(lambda: m.run(_loop(step, 3))) == 0  # undefined: the general path
    assert len(m.undefined_reads) == 12


def test_ports_that_meet_are_reported_at_every_yield() -> None:
    """Two reads of one array meeting at cells 2 and 3: never planned (the fast path refuses
    them), reported at each yield under EREW as for fresh steps; clean under CREW, where the
    step is planned."""
    left = np.frombuffer(np.arange(4, dtype=np.int64).tobytes(), dtype=np.int64)
    right = np.frombuffer(np.arange(2, 6, dtype=np.int64).tobytes(), dtype=np.int64)
    seen = []
    for model in ("erew", "crew"):
        for fresh in (False, True):
            m = Machine(model)
            a = m.array("a", values=np.arange(8))
            pid = m.processors(4)
            step = Step(pid, reads=(Read(a, left), Read(a, right)))
            m.run(Step(pid, reads=(Read(a, left), Read(a, right))) if fresh else step
                  for _ in range(3))
            seen.append((model, m.violations, m.cost))
    assert seen[0] == seen[1] and seen[2] == seen[3]
    assert len(seen[0][1]) > 0 and seen[2][1] == [] and seen[2][2].reads == 24


def test_a_field_swapped_behind_the_frozen_step_is_tested_again() -> None:
    m = Machine()
    a = m.array("a", values=np.arange(8))
    pid = m.processors(4)
    read = Read(a, pid)
    step = Step(pid, reads=(read,))
    assert _planned(lambda: m.run(_loop(step, 3))) == 1
    outside = np.frombuffer(np.arange(6, 10, dtype=np.int64).tobytes(), dtype=np.int64)
    object.__setattr__(read, "index", outside)  # a cheat: the planned index swapped
    with pytest.raises(AddressError, match=r"read a\[8\]"):
        m.run(_loop(step, 1))
