"""The trace's tables (:mod:`pram.reports.trace_view`) name a matrix's cells by row and column."""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import (
    Machine,
    Read,
    Step,
    Write,
    iota,
)
from pram.reports.trace_view import tables


def test_trace_tables_name_matrix_cells_by_row_and_column() -> None:
    m = Machine("crew", trace=True)
    A = m.array("A", values=np.arange(12).reshape(3, 4))
    b = m.array("b", size=2)

    def program(m: Machine) -> Any:
        pid = m.processors(2)
        (x,) = yield Step(pid, reads=[Read(A, (iota(2) + 1, iota(2) * 0))])
        yield Step(pid, writes=[Write(b, iota(2), x), Write(A, (iota(2), iota(2) + 2), x)])

    m.run(program(m))
    from rich.console import Console
    console = Console(width=200, record=True)
    console.print(tables(m.trace, [1, 2]))
    text = console.export_text()
    assert "A[1, 0] = 4" in text and "A[2, 0] = 8" in text
    assert "A[0, 2] <- 4 (2 -> 4)" in text and "A[1, 3] <- 8" in text
    assert "b[1] <- 8" in text
    assert "A[4]" not in text
