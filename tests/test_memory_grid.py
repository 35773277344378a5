"""Two-dimensional arrays: a flat index into a matrix is refused, whatever the model and the
kind of access."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pram import (
    Machine,
    Read,
    Step,
    StepError,
    Write,
    iota,
)

# ---- F6, F7: two-dimensional arrays ------------------------------------------------------


@pytest.mark.parametrize("model", ["erew", "crew", "crcw-priority"])
@pytest.mark.parametrize("kind", ["read", "write", "plain int"])
def test_a_flat_index_into_a_matrix_is_refused(model: str, kind: str) -> None:
    m = Machine(model)
    A = m.array("A", values=np.arange(12).reshape(3, 4))

    def program(m: Machine) -> Any:
        pid = m.processors(2)
        if kind == "read":
            yield Step(pid, reads=[Read(A, iota(2) + 5)])
        elif kind == "write":
            yield Step(pid, writes=[Write(A, np.array([5, 6]), 1)])
        else:
            yield Step(pid[:1], reads=[Read(A, 5)])

    with pytest.raises(StepError, match=r"two-dimensional, shape \(3, 4\); pass a pair"):
        m.run(program(m))
    assert A.to_numpy().reshape(-1).tolist() == list(range(12))
