"""Narrowing casts of registers: a cast that wraps is an overflow; values that fit, and
``pram.modular``, wrap as numpy does."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import pram
from pram import (
    IntegerOverflowError,
    Machine,
    Read,
    Step,
    Write,
    iota,
)

# ---- F8: narrowing casts -------------------------------------------------------------------


@pytest.mark.parametrize(("dtype", "value"), [(np.int32, 2**40), (np.int8, 300),
                                              (np.uint64, -1), (np.uint8, -3)])
def test_narrowing_astype_that_wraps_is_an_overflow(dtype: Any, value: int) -> None:
    m = Machine("erew")
    a = m.array("a", values=[1, value])

    def program(m: Machine) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, iota(2))])
        yield Step(pid, writes=[Write(a, iota(2), x.astype(dtype).astype(np.int64))])

    with pytest.raises(IntegerOverflowError, match=f"processor 1 converted {value} from int64"):
        m.run(program(m))


def test_narrowing_values_that_fit_is_allowed_and_modular_wraps() -> None:
    m = Machine("erew")
    a = m.array("a", values=[-5, 100])

    def program(m: Machine, dtype: Any) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(a, iota(2))])
        yield Step(pid, writes=[Write(a, iota(2), x.astype(dtype).astype(np.int64))])

    m.run(program(m, np.int8))
    assert a.to_numpy().tolist() == [-5, 100]
    m.run(pram.modular(program(m, np.uint64)))  # wraps, as numpy does, when declared
    assert a.to_numpy().tolist() == [-5, 100]
