"""Two integer registers through a ufunc quiet on integers take a shorter path that must answer
as the full checks do: the same values and dtype, the same local work counted, the same
operations observed, and an overflow (add, subtract, multiply, left_shift) failing the run the
same way."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pram import Machine, PRAMError, Read, Step, Write
from pram.registers import contents
from pram.registers.register import _QUIET_PAIRS


class _Seen:
    def __init__(self) -> None:
        self.operations: list[str] = []

    def step(self, number: int, steps: Any, replies: Any) -> None:
        pass

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        self.operations.append(name)


def _run(ufunc: np.ufunc, full: bool) -> dict[str, Any]:
    seen = _Seen()
    m = Machine(observer=seen)
    a = m.array("a", values=np.array([3, -2, 7, 0, 1, 5]))
    b = m.array("b", values=np.array([1, 4, -7, 0, 2, 5]))
    out = m.array("out", size=6)
    pid = m.processors(6)
    got: list[Any] = []

    def program() -> Any:
        x, y = yield Step(pid, reads=(Read(a, pid), Read(b, pid)))
        # where=True is a keyword: it takes every check of Register.__array_ufunc__
        z = ufunc(x, y, where=True) if full else ufunc(x, y)
        got.append(z)
        yield Step(pid, writes=(Write(out, pid, z.astype(np.int64)),))

    try:
        m.run(program())
    except PRAMError as error:  # an overflow (a shift by -7): the same error both ways
        return {"error": str(error), "seen": seen.operations, "got": len(got)}
    return {"values": contents(got[0]).tolist(), "dtype": contents(got[0]).dtype,
            "cost": m.cost, "seen": seen.operations, "out": out.to_numpy().tolist()}


@pytest.mark.parametrize("ufunc", sorted(_QUIET_PAIRS, key=lambda u: u.__name__),
                         ids=lambda u: u.__name__)
def test_a_quiet_pair_answers_as_the_full_checks(ufunc: np.ufunc) -> None:
    assert _run(ufunc, False) == _run(ufunc, True)
