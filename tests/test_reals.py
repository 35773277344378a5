"""Reals (float64 arrays and registers) under every model, against plain Python and numpy.

The references are written here in plain Python floats (IEEE doubles, like numpy's float64):
the same association order as the program gives the same bits, so those comparisons are exact;
numpy's own sums and products (other orders) are compared within a stated tolerance.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import MODELS, InputError, Machine, Read, Step, StepError, Write, iota
from pram.models import COLLISION
from pram.step import Program
from pram.violations import Kind
from tests.helpers import whole

ROUND = (
    "allocate the array with dtype=float to hold reals, or round explicitly, e.g. "
    "np.rint(x).astype(np.int64)"
)


# ---- memory and registers keep their dtype --------------------------------------------------


@pytest.mark.parametrize("dtype", [float, np.float64, "float64"])
def test_a_float_array_keeps_its_reals(dtype: object) -> None:
    """Reals go in, through a read, a register and a write, and come out unchanged."""
    m = Machine()
    a = m.array("a", values=[0.5, -1.25, 1e300, 3.0], dtype=dtype)
    b = m.array("b", size=4, dtype=dtype)
    assert a.dtype == np.float64 and b.dtype == np.float64

    def halve(m: Machine) -> Program[None]:
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        assert x.dtype == np.float64
        yield Step(pid, writes=[Write(b, iota(4), x / 2)])

    m.run(halve(m))
    assert b.to_numpy().dtype == np.float64
    assert b.to_numpy().tolist() == [0.25, -0.625, 5e299, 1.5]


@pytest.mark.parametrize("dtype", [None, int, np.int64, "int64"])
def test_int64_is_the_default_and_refuses_reals(dtype: object) -> None:
    """Reals for an int64 array: both fixes named, and no truncating cast advised."""
    message = (
        "values of array 'a' must be integers (got dtype float64); pass dtype=float to keep "
        "them real, or make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) "
        "for reals (a plain cast would truncate them)"
    )
    with pytest.raises(InputError, match=whole(message)):
        Machine().array("a", values=np.array([0.25, 0.75]), dtype=dtype)
    assert "asarray" not in message
    assert Machine().array("a", values=[1, 2], dtype=dtype).dtype == np.int64


def test_other_dtypes_are_refused() -> None:
    message = (
        "dtype of array 'a' must be int (int64, the default) or float (float64) (got "
        "'int32'); pass dtype=int or dtype=float"
    )
    with pytest.raises(InputError, match=whole(message)):
        Machine().array("a", size=2, dtype="int32")
    with pytest.raises(InputError, match="must be reals"):
        Machine().array("a", values=np.array(["x"]), dtype=float)


@pytest.mark.parametrize("value", ["register", "array", "constant"])
def test_reals_written_into_an_int64_array_are_refused(value: str) -> None:
    """A float register, array or number written to an int64 array: refused with both fixes."""
    m = Machine()
    a = m.array("a", values=[1, 2])
    r = m.array("r", values=[0.5, 1.5], dtype=float)

    def write(m: Machine) -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(r, iota(2))])
        given = {"register": x, "array": np.array([0.5, 1.5]), "constant": 0.5}[value]
        yield Step(pid, writes=[Write(a, iota(2), given)])

    with pytest.raises(StepError) as error:
        m.run(write(m))
    assert str(error.value).endswith(ROUND)
    assert "but a holds int64 words" in str(error.value)
    assert a.to_numpy().tolist() == [1, 2]


def test_integers_written_into_a_float_array_are_the_reals_they_are() -> None:
    m = Machine()
    a = m.array("a", size=3, dtype=float)

    def write(m: Machine) -> Program[None]:
        pid = m.processors(3)
        yield Step(pid, writes=[Write(a, iota(3), iota(3) * 3)])
        yield Step(pid[:1], writes=[Write(a, 0, 7)])

    m.run(write(m))
    assert a.to_numpy().tolist() == [7.0, 3.0, 6.0]


def test_a_masked_read_of_reals_gives_zero_reals_where_masked_out() -> None:
    m = Machine()
    a = m.array("a", values=[1.5, 2.5], dtype=float)
    b = m.array("b", size=2, dtype=float)

    def read(m: Machine) -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(a, iota(2), where=np.array([False, True]))])
        yield Step(pid, writes=[Write(b, iota(2), x)])

    m.run(read(m))
    assert b.to_numpy().tolist() == [0.0, 2.5]


# ---- float prefix sums on 2^16 reals: exact in the program's own order ---------------------


def prefix_sums(m: Machine, a: object, n: int) -> Program[None]:
    """Hillis and Steele's doubling scan on EREW: processor i keeps its sum in a register,
    writes it to the buffer, and adds the sum of processor i - d read from there."""
    buffer = m.array("buffer", size=n, dtype=float)
    pid = m.processors(n)
    i = iota(n)
    total, = yield Step(pid, reads=[Read(a, i)])  # type: ignore[arg-type]
    d = 1
    while d < n:
        yield Step(pid, writes=[Write(buffer, i, total)])
        later = pid[d:]
        far, = yield Step(later, reads=[Read(buffer, i[: n - d])])
        mine = total[d:]
        total[d:] = far + mine
        d *= 2
    yield Step(pid, writes=[Write(a, i, total)])  # type: ignore[arg-type]


def doubling_in_python(values: list[float]) -> list[float]:
    """The same association order in plain Python floats: s[i] <- s[i - d] + s[i]."""
    s = list(values)
    d = 1
    while d < len(s):
        s = [s[i - d] + s[i] if i >= d else s[i] for i in range(len(s))]
        d *= 2
    return s


def test_float_prefix_sums_of_2_to_16_reals_are_exact_in_their_order() -> None:
    n = 1 << 16
    rng = np.random.default_rng(21)
    values = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 7, n)
    m = Machine("erew")
    a = m.array("a", values=values, dtype=float)
    with m.scope():
        m.run(prefix_sums(m, a, n))
    assert not m.violations
    got = a.to_numpy()
    assert got.tolist() == doubling_in_python(values.tolist())  # the same bits
    # numpy's cumsum adds in another order: equal within the rounding of n additions.
    scale = np.cumsum(np.abs(values))
    assert np.all(np.abs(got - np.cumsum(values)) <= 64 * n * np.finfo(float).eps * scale)


# ---- a matrix-vector product on CREW ---------------------------------------------------------


def matvec(m: Machine, A: object, x: object, y: object, r: int, c: int) -> Program[None]:
    """y = A x: r*c processors multiply (x read concurrently), then r add their rows in order."""
    k = iota(r * c)
    pid = m.processors(r * c)
    a, v = yield Step(pid, reads=[Read(A, (k // c, k % c)), Read(x, k % c)])  # type: ignore
    products = m.array("products", shape=(r, c), dtype=float)
    yield Step(pid, writes=[Write(products, (k // c, k % c), a * v)])
    rows, i = m.processors(r), iota(r)
    total = None
    for j in range(c):
        t, = yield Step(rows, reads=[Read(products, (i, np.full(r, j)))])
        total = t if total is None else total + t
    yield Step(rows, writes=[Write(y, i, total)])  # type: ignore[arg-type]


def test_matrix_vector_product_against_numpy() -> None:
    """Exact against the same order in Python; within 1e-13 |A| |x| of numpy's ``A @ x``."""
    r, c = 12, 16
    rng = np.random.default_rng(5)
    matrix, vector = rng.standard_normal((r, c)), rng.standard_normal(c)
    m = Machine("crew")
    A = m.array("A", values=matrix, dtype=float)
    x = m.array("x", values=vector, dtype=float)
    y = m.array("y", size=r, dtype=float)
    with m.scope():
        m.run(matvec(m, A, x, y, r, c))
    assert not m.violations
    got = y.to_numpy()
    rows = [functools.reduce(lambda s, t: s + t, [float(matrix[i, j]) * float(vector[j])
                                                  for j in range(c)]) for i in range(r)]
    assert got.tolist() == rows
    assert np.all(np.abs(got - matrix @ vector) <= 1e-13 * (np.abs(matrix) @ np.abs(vector)))
    assert "products" not in m.arrays  # freed by the scope


def test_matrix_vector_product_on_erew_names_the_concurrent_reads_of_x() -> None:
    r, c = 3, 4
    m = Machine("erew")
    A = m.array("A", values=np.ones((r, c)), dtype=float)
    x = m.array("x", values=np.ones(c), dtype=float)
    y = m.array("y", size=r, dtype=float)
    m.run(matvec(m, A, x, y, r, c))
    first = m.violations[0]
    assert first.kind is Kind.READ_READ and first.array == "x"
    assert first.message == (
        "EREW forbids concurrent reads: processors 0, 4 and 8 read x[0] in step 1"
    )


# ---- every model defined for floats: brute force against plain Python ----------------------

SPECIAL = [0.0, -0.0, 1.0, 1.5, -2.25, 1e16, -1e16, math.nan, math.inf]


def expected(name: str, values: list[float], old: float) -> tuple[float | None, bool]:
    """What a cell written by ``values`` (in processor-id order) holds under model ``name``,
    and whether the writes are a violation; None: any of the written values (arbitrary)."""
    several = len(values) > 1
    # == : NaN agrees with nothing, not even NaN; a lone writer has nobody to disagree with
    agree = not several or all(v == values[0] for v in values)
    if name in ("erew", "crew"):
        return values[0], several
    if name in ("crcw-common", "ercw"):
        return values[0], several and not agree
    if name == "crcw-weak":
        return values[0], several and not (agree and values[0] in (0.0, 1.0))
    if name == "crcw-arbitrary":
        return (None if several else values[0]), False
    if name == "crcw-priority":
        return values[0], False
    if name == "crcw-sum":
        return functools.reduce(lambda s, t: s + t, values), False
    if name in ("crcw-max", "crcw-min"):
        if any(math.isnan(v) for v in values):
            return math.nan, False
        return (max(values) if name == "crcw-max" else min(values)), False
    if name == "crcw-tolerant":
        return (values[0] if agree else old), False
    if name == "crcw-collision":
        return (float(COLLISION) if several else values[0]), False
    assert name == "crcw-collision+"
    return (values[0] if agree else float(COLLISION)), False


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("name", list(MODELS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_float_writes_resolve_as_plain_python_says(name: str, data: st.DataObject) -> None:
    """Writers of reals (NaN, infinities, signed zeros, magnitudes whose sum depends on the
    order) into few cells: cell contents and violations as the reference computes them."""
    cells = data.draw(st.integers(1, 3))
    writers = data.draw(st.integers(1, 9))
    targets = data.draw(st.lists(st.integers(0, cells - 1), min_size=writers,
                                 max_size=writers))
    written = data.draw(st.lists(st.sampled_from(SPECIAL) | st.floats(-1e3, 1e3),
                                 min_size=writers, max_size=writers))
    old = [0.5 + cell for cell in range(cells)]
    m = Machine(name, mode="collect", seed=3)
    a = m.array("a", values=old, dtype=float)

    def write(m: Machine) -> Program[None]:
        yield Step(m.processors(writers), writes=[
            Write(a, np.array(targets, np.int64), np.array(written, np.float64))])

    m.run(write(m))
    got = a.to_numpy().tolist()
    flagged = {v.index for v in m.violations if v.kind is Kind.WRITE_WRITE}
    for cell in range(cells):
        mine = [w for t, w in zip(targets, written, strict=True) if t == cell]
        if not mine:
            assert same(got[cell], old[cell])
            continue
        value, violation = expected(name, mine, old[cell])
        if value is None:
            assert any(same(got[cell], w) for w in mine)
        else:
            assert same(got[cell], value), (cell, mine, got[cell], value)
        assert (cell in flagged) == violation, (cell, mine)


def test_crcw_sum_of_reals_adds_in_processor_order() -> None:
    """1e16 + 1 - 1e16 in id order is 0 (the 1 is lost), unlike a pairwise sum's order."""
    m = Machine("crcw-sum")
    a = m.array("a", values=[0.0], dtype=float)

    def write(m: Machine) -> Program[None]:
        yield Step(m.processors(4), writes=[
            Write(a, np.zeros(4, np.int64), np.array([1e16, 1.0, -1e16, 1.0]))])

    m.run(write(m))
    assert a.to_numpy().tolist() == [((1e16 + 1.0) - 1e16) + 1.0]


def test_crcw_common_violation_shows_the_reals_written() -> None:
    m = Machine("crcw-common")
    a = m.array("a", size=1, dtype=float)

    def write(m: Machine) -> Program[None]:
        yield Step(m.processors(2), writes=[
            Write(a, np.zeros(2, np.int64), np.array([0.5, math.nan]))])

    m.run(write(m))
    assert m.violations[0].message == (
        "CRCW-common forbids disagreeing writes: processors 0 and 1 write 0.5 and nan to a[0] "
        "in step 1"
    )


def test_a_trace_and_the_display_carry_reals_dtype_and_shape() -> None:
    m = Machine("crew", trace=True)
    A = m.array("A", values=np.array([[0.5, 1.5], [2.5, 3.5]]), dtype=float)
    v = m.array("v", size=2, dtype=float)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(A, (iota(2), 1))])
        yield Step(pid, writes=[Write(v, iota(2), x * 2)])

    m.run(program(m))
    data = m.trace.as_dict()
    arrays = {a["name"]: a for a in data["arrays"]}
    assert (arrays["A"]["dtype"], arrays["A"]["shape"]) == ("float64", [2, 2])
    assert (arrays["v"]["dtype"], arrays["v"]["shape"]) == ("float64", [2])
    write = data["steps"][1]["accesses"][0]
    assert write["values"] == [3.0, 7.0] and write["after"] == [3.0, 7.0]
    assert ["arrays", "A[2, 2] float64, v[2] float64"] in m._rows()


@pytest.mark.parametrize("name", ["crcw-tolerant", "crcw-collision+"])
def test_a_lone_nan_lands_beside_a_clash(name: str) -> None:
    """A lone NaN writer has nobody to disagree with, even when another cell of the same step
    is written by two disagreeing processors (found by the batching branch's full run)."""
    m = Machine(name, mode="collect")
    a = m.array("a", values=[0.5, 0.5], dtype=float)

    def write(m: Machine) -> Program[None]:
        yield Step(m.processors(3), writes=[
            Write(a, np.array([0, 1, 1], np.int64), np.array([np.nan, 2.0, 3.0]))])

    m.run(write(m))
    got = a.to_numpy().tolist()
    assert math.isnan(got[0])
    assert got[1] == (0.5 if name == "crcw-tolerant" else float(COLLISION))
    assert [r.index for r in m.resolutions] == [1]
