"""Two-dimensional arrays: pairs (i, j) per processor, row-major cells, per-axis bounds, and
cells named A[i, j] everywhere; numpy's own fancy indexing is the reference."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import AddressError, InputError, Machine, Read, Step, StepError, Write, hold, iota
from pram.step import Program
from tests.helpers import whole


def test_shape_size_values_and_to_numpy() -> None:
    m = Machine()
    A = m.array("A", shape=(3, 4))
    assert (A.shape, A.size, len(A), A.dtype) == ((3, 4), 12, 12, np.int64)
    B = m.array("B", values=np.arange(6).reshape(2, 3))
    assert B.shape == (2, 3) and B.to_numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    assert B.values.shape == (2, 3)
    B.values = np.ones((2, 3), np.int64)
    assert B.to_numpy().tolist() == [[1, 1, 1], [1, 1, 1]]
    C = m.array("C", values=np.zeros((2, 2)), dtype=float, shape=(2, 2))
    assert repr(C) == "Array('C', shape=(2, 2), dtype=float64)"
    with pytest.raises(InputError, match=re.escape("have shape (2, 2) but shape (4, 1)")):
        m.array("D", values=np.zeros((2, 2), np.int64), shape=(4, 1))
    with pytest.raises(InputError, match=re.escape("shape of array 'E' must be two")):
        m.array("E", shape=(2, -1))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_reads_and_writes_by_pairs_match_numpy(data: st.DataObject) -> None:
    rows, columns = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    n = data.draw(st.integers(1, 8))
    i = np.array(data.draw(st.lists(st.integers(0, rows - 1), min_size=n, max_size=n)))
    j = np.array(data.draw(st.lists(st.integers(0, columns - 1), min_size=n, max_size=n)))
    grid = np.arange(rows * columns, dtype=np.int64).reshape(rows, columns) * 10
    m = Machine("crcw-priority")
    A = m.array("A", values=grid)
    B = m.array("B", values=np.zeros((rows, columns), np.int64))
    got = m.array("got", size=n)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(n)
        x, = yield Step(pid, reads=[Read(A, (i, j))])
        yield Step(pid, writes=[Write(got, iota(n), x), Write(B, (i, j), x + 1)])

    m.run(program(m))
    assert got.to_numpy().tolist() == grid[i, j].tolist()
    expected = np.zeros((rows, columns), np.int64)
    for k in reversed(range(n)):  # priority: the lowest id lands
        expected[i[k], j[k]] = grid[i[k], j[k]] + 1
    assert B.to_numpy().tolist() == expected.tolist()


def test_pairs_of_registers_and_constants_and_masks() -> None:
    """i from a register (pointer-style), j a constant; a where mask leaves cells alone."""
    m = Machine()
    A = m.array("A", values=np.arange(8).reshape(2, 4))
    rows = m.array("rows", values=[1, 0])
    out = m.array("out", size=2)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(2)
        r, = yield Step(pid, reads=[Read(rows, iota(2))])
        x, = yield Step(pid, reads=[Read(A, (r, 3))])
        yield Step(pid, writes=[Write(out, iota(2), x)])
        yield Step(pid, writes=[Write(A, (hold(pid, 0), iota(2)), -1,
                                      where=np.array([False, True]))])

    m.run(program(m))
    assert out.to_numpy().tolist() == [7, 3]
    assert A.to_numpy().tolist() == [[0, -1, 2, 3], [4, 5, 6, 7]]


def test_each_axis_is_checked() -> None:
    m = Machine()
    A = m.array("A", shape=(4, 8))

    def program(m: Machine) -> Program[None]:
        yield Step(m.processors(2), reads=[Read(A, (np.array([0, 3]), np.array([7, 9])))])

    message = (
        "processor 1 tried to read A[3, 9] in step 1, which is outside shape (4, 8) (rows 0 "
        "to 3, columns 0 to 7)"
    )
    with pytest.raises(AddressError, match=whole(message)) as error:
        m.run(program(m))
    assert (error.value.array, error.value.processor) == ("A", 1)


def test_a_single_index_into_a_matrix_and_a_pair_into_a_flat_array_are_refused() -> None:
    m = Machine()
    A = m.array("A", shape=(2, 3))
    a = m.array("a", size=2)

    def flat_into_matrix(m: Machine) -> Program[None]:
        yield Step(m.processors(2), reads=[Read(A, iota(2))])

    message = (
        "the index into A in step 1 is one index per processor, but A is two-dimensional, "
        "shape (2, 3); pass a pair Read(A, (i, j)) of row and column indices (for a flat cell "
        "k, (k // 3, k % 3))"
    )
    with pytest.raises(StepError, match=whole(message)):
        m.run(flat_into_matrix(m))

    def pair_into_flat(m: Machine) -> Program[None]:
        yield Step(m.processors(2), reads=[Read(a, (iota(2), iota(2)))])

    with pytest.raises(StepError, match="is a pair, but a is flat"):
        m.run(pair_into_flat(m))


def test_violations_and_undefined_reads_name_the_cell_by_row_and_column() -> None:
    m = Machine("crew", strict=False)
    A = m.array("A", shape=(2, 3))

    def program(m: Machine) -> Program[None]:
        pid = m.processors(2)
        yield Step(pid, reads=[Read(A, (1, 2))])
        yield Step(pid, writes=[Write(A, (1, 2), iota(2))])

    m.run(program(m))
    assert m.undefined_reads[0].message.startswith("undefined read: processor 0 read A[1, 2] ")
    assert m.violations[0].message == (
        "CREW forbids concurrent writes: processors 0 and 1 write A[1, 2] in step 2"
    )
    assert m.violations[0].index == 5  # the row-major cell underneath


def test_a_tolerant_resolution_names_the_cell_by_row_and_column() -> None:
    m = Machine("crcw-tolerant")
    A = m.array("A", values=np.zeros((2, 2)), dtype=float)

    def program(m: Machine) -> Program[None]:
        yield Step(m.processors(2), writes=[Write(A, (1, 0), np.array([0.5, 1.5]))])

    m.run(program(m))
    assert m.resolutions[0].message.startswith(
        "CRCW-tolerant kept A[1, 0] as it was: processors 0 and 1 wrote 0.5 and 1.5"
    )
