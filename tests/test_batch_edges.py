"""A batch against single runs at its edges: plain operands, ``...`` keys, value shapes, the
records of 2-D arrays and of words written to reals.

Each program runs once on ``Machine(batch=B)`` and once on a single machine per instance; the
batch must refuse what the single machine refuses, with the same message (a refusal of the
run is named by its instance), and otherwise give every instance the single run's memory and
records, field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import HonestyError, InputError, Machine, PRAMError, Read, Step, Write, iota

Body = Callable[[Any, Any], Any]  # (processors, register) -> (writers, value written)


def _program(m: Machine, a: Any, b: Any, body: Body, n: int) -> Any:
    pid = m.processors(n)
    (x,) = yield Step(pid, reads=[Read(a, iota(n))])
    writers, value = body(pid, x)
    yield Step(writers, writes=[Write(b, iota(len(writers)), value)])


def _outcome(make: Callable[[Machine], Any], m: Machine) -> tuple[str, Any]:
    """What a run of ``make(m)`` on ``m`` gave: its error (type and message) or its memory."""
    program, arrays = make(m)
    try:
        m.run(program)
    except (PRAMError, IndexError, ValueError) as error:
        return type(error).__name__, str(error)
    return "ran", {name: array.to_numpy().tolist() for name, array in arrays.items()}


def _records(m: Machine, i: int | None) -> list[dict[str, Any]]:
    """Every record of instance ``i`` (all, on a single machine) as its fields, the
    instance left out, and its message."""
    found = []
    for kind in (m.violations, m.resolutions, m.undefined_reads):
        for r in kind:
            if i is None or r.instance == i:
                fields = attrs.asdict(attrs.evolve(r, instance=None), recurse=False)
                found.append({**fields, "message": attrs.evolve(r, instance=None).message})
    return found


def _against_singles(rows: dict[str, Any], make: Callable[[Machine, dict[str, Any]], Any],
                     model: str = "erew", **machine: Any) -> tuple[str, Any]:
    """Run ``make`` on a batch of the instances ``rows`` (array name to ``(B, ...)`` values or
    a size) and on a single machine per instance; assert they agree; return the batch's
    outcome."""
    batch = len(next(v for v in rows.values() if not isinstance(v, tuple)))

    def arrays_of(m: Machine, i: int | None) -> dict[str, Any]:
        made = {}
        for name, values in rows.items():
            if isinstance(values, tuple):  # (size, keywords): undefined cells
                size, more = values
                made[name] = m.array(name, size, **more)
            else:
                made[name] = m.array(name, values=values if i is None else values[i])
        return made

    together = Machine(model, batch=batch, **machine)
    kind, got = _outcome(lambda m: make(m, arrays_of(m, None)), together)
    for i in range(batch):
        alone = Machine(model, **machine)
        single_kind, single = _outcome(lambda m, i=i: make(m, arrays_of(m, i)), alone)
        if single_kind != "ran":
            assert kind == single_kind, (i, got, single)
            assert got in (single, f"instance {i}: {single}"), (i, got, single)
            return kind, got
        assert kind == "ran", (i, got, single)
        assert {k: v[i] for k, v in got.items()} == single, i
        assert _records(together, i) == _records(alone, None), i
    return kind, got


def _leak(body: Body, n: int = 4, batch: int = 3) -> tuple[str, Any]:
    values = np.arange(batch * n).reshape(batch, n) * 10 + 1
    return _against_singles(
        {"a": values, "b": np.zeros((batch, n), dtype=np.int64)},
        lambda m, arrays: (_program(m, arrays["a"], arrays["b"], body, n), arrays),
    )


# ---- 1. plain operands are shared: they fit one instance's row or are refused -----------------

SPREADING: dict[str, Body] = {
    "x + plain (B, 1)": lambda pid, x: (pid, x + np.arange(3)[:, None]),
    "x + plain (B, n)": lambda pid, x: (pid, x + np.arange(12).reshape(3, 4)),
    "plain (B, n) * x": lambda pid, x: (pid, np.arange(12).reshape(3, 4) * x),
    "np.where(plain (B, n) mask, x, 0)": lambda pid, x: (
        pid, np.where(np.eye(3, 4, dtype=bool), x, 0)),
    "np.maximum(x, plain (1, n))": lambda pid, x: (pid, np.maximum(x, np.ones((1, 4), int))),
    "x[0] + plain (B, 1)": lambda pid, x: (pid[:1], x[0] + np.array([[7], [8], [9]])),
    "x[0] + plain of length B": lambda pid, x: (pid[:1], x[0] + np.array([7, 8, 9])),
}


@pytest.mark.parametrize("name", sorted(SPREADING))
def test_a_plain_operand_beyond_one_row_is_refused_as_on_one_machine(name: str) -> None:
    """``x + plain`` with a plain array of shape (B, 1) or (B, n) would hand each instance
    values chosen by its place in the batch: refused as a single machine refuses it, with its
    message (the shape of one instance's result, never the batch's)."""
    kind, message = _leak(SPREADING[name])
    assert kind == HonestyError.__name__
    assert "spreads values over other processors" in message  # the single's, to the letter


FITTING: dict[str, Body] = {
    "x + plain (n,)": lambda pid, x: (pid, x + np.arange(4)),
    "x * plain (1,)": lambda pid, x: (pid, x * np.array([3])),
    "np.where(plain (n,) mask, x, -x)": lambda pid, x: (
        pid, np.where(np.array([True, False, True, False]), x, -x)),
    "x[1:3] - plain (2,)": lambda pid, x: (pid[1:3], x[1:3] - np.array([5, 6])),
    "x[0] + plain (1,)": lambda pid, x: (pid[:1], x[0] + np.array([7])),
}


@pytest.mark.parametrize("name", sorted(FITTING))
@settings(max_examples=8, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 50), min_size=4, max_size=4), min_size=1,
                max_size=4))
def test_a_plain_operand_within_one_row_is_shared_by_every_instance(
        name: str, rows: list[list[int]]) -> None:
    """A plain array that fits one instance's row is shared by every instance: each gets the
    single run's answer."""
    values = np.array(rows, dtype=np.int64)
    kind, _ = _against_singles(
        {"a": values, "b": np.zeros_like(values)},
        lambda m, arrays: (_program(m, arrays["a"], arrays["b"], FITTING[name], 4), arrays),
    )
    assert kind == "ran"


# ---- 2. keys with an ellipsis index one instance's processors, as on one machine ------------

ELLIPSIS: dict[str, Body] = {
    "x[..., 0]": lambda pid, x: (pid[:1], x[..., 0]),
    "x[0, ...]": lambda pid, x: (pid[:1], x[0, ...]),
    "x[...] by other processors": lambda pid, x: (pid[:1], x[...]),
    "x[..., 1:3]": lambda pid, x: (pid[1:3], x[..., 1:3]),
    "x[...] + 1": lambda pid, x: (pid, x[...] + 1),
}


@pytest.mark.parametrize("name", sorted(ELLIPSIS))
def test_an_ellipsis_key_behaves_as_on_one_machine(name: str) -> None:
    """``x[..., 0]`` on a batch's register indexes one instance's processors (never the
    instance axis): the same acceptance, or the same HonestyError, as a single run."""
    kind, got = _leak(ELLIPSIS[name])
    assert kind in ("ran", HonestyError.__name__), got


def test_an_ellipsis_key_assigns_as_on_one_machine() -> None:
    """``y[..., 1:] = 0`` on a batch's register changes every instance's row alike."""

    def body(pid: Any, x: Any) -> Any:
        y = x.copy()
        y[..., 1:] = 0
        return pid, y

    kind, got = _leak(body)
    assert kind == "ran"
    assert got["b"] == [[1, 0, 0, 0], [41, 0, 0, 0], [81, 0, 0, 0]]


# ---- 3. values of the wrong shape: one row per instance, named --------------------------------

@pytest.mark.parametrize(("shape", "keywords", "expected"), [
    ((3, 4, 2, 2), {}, r"must be of shape \(3, size\), one row per instance of the batch of 3 "
                       r"\(got shape \(3, 4, 2, 2\)\)"),
    ((2, 4), {}, r"must be of shape \(3, size\), one row per instance of the batch of 3 "
                 r"\(got shape \(2, 4\)\)"),
    ((), {}, r"\(got shape \(\)\)"),
    ((2, 2, 2), {}, r"must be of shape \(3, r, c\), one \(r, c\) matrix per instance of the "
                    r"batch of 3 \(got shape \(2, 2, 2\)\)"),
    ((4,), {"shape": (2, 2)}, r"shape \(3, r, c\)"),
])
def test_values_of_another_shape_name_the_batch(shape: tuple[int, ...], keywords: Any,
                                                expected: str) -> None:
    """Values neither one row per instance nor one for all are refused naming the batch's
    size, the shape expected and the shape given."""
    with pytest.raises(InputError, match=expected):
        Machine(batch=3).array("a", values=np.zeros(shape, dtype=np.int64), **keywords)


def test_values_of_one_row_or_one_per_instance_are_taken() -> None:
    """The shapes the message offers are the shapes taken."""
    m = Machine(batch=3)
    assert m.array("a", values=np.arange(4)).to_numpy().shape == (3, 4)
    assert m.array("b", values=np.zeros((3, 4), np.int64)).to_numpy().shape == (3, 4)
    assert m.array("c", values=np.zeros((3, 2, 2), np.int64)).to_numpy().shape == (3, 2, 2)
    assert m.array("d", values=np.zeros((2, 2), np.int64), shape=(2, 2)).to_numpy().shape \
        == (3, 2, 2)


# ---- 4. records of 2-D arrays name the cell by pair -----------------------------------------

def _grid(m: Machine, arrays: dict[str, Any]) -> Any:
    def program() -> Any:
        pid = m.processors(3)
        (x,) = yield Step(pid, reads=[Read(arrays["a"], iota(3))])
        yield Step(pid, reads=[Read(arrays["T"], (x // 3, x % 3))])
        yield Step(pid, writes=[Write(arrays["T"], (x // 3 * 0, np.zeros(3, np.int64)), x)])
    return program(), {"a": arrays["a"]}


@pytest.mark.parametrize("strict", [False, True])
def test_undefined_reads_of_a_2d_array_are_named_by_pair(strict: bool) -> None:
    """An undefined read of T[0, 1] in a batch is recorded as on a single machine: index 1 of
    a table of 3 columns, named "T[0, 1]" (and so refused, under strict)."""
    rows = {"a": np.array([[1, 4, 2], [0, 0, 5], [3, 3, 3]]),
            "T": (6, {"shape": (2, 3)})}
    kind, got = _against_singles(rows, _grid, "crcw-common", strict=strict)
    if strict:
        assert kind == "UndefinedReadError"
        assert got.startswith("instance 0: undefined read: processor 0 read T[0, 1] in step 2")
    m = Machine("crcw-common", batch=3, strict=False)
    a = m.array("a", values=rows["a"])
    table = m.array("T", 6, shape=(2, 3))
    m.run(_grid(m, {"a": a, "T": table})[0])
    first = m.undefined_reads[0]
    assert (first.instance, first.index, first.columns) == (0, 1, 3)
    assert "read T[0, 1]" in first.message


def test_conflicts_in_a_2d_array_are_named_by_pair() -> None:
    """Concurrent writes to one cell of a 2-D array are recorded as on a single machine."""
    _against_singles({"a": np.array([[1, 4, 2], [0, 0, 5], [3, 3, 3]]),
                      "T": (6, {"shape": (2, 3)})}, _grid, "crcw-common")
    _against_singles({"a": np.array([[1, 4, 2], [0, 0, 5], [3, 3, 3]]),
                      "T": (6, {"shape": (2, 3)})}, _grid, "crcw-collision")


# ---- 5. words written to reals are recorded as the words written -----------------------------

@pytest.mark.parametrize("model", ["crcw-common", "crcw-collision", "crcw-tolerant",
                                   "crcw-arbitrary", "erew"])
def test_words_written_at_once_to_a_real_cell_are_recorded_as_words(model: str) -> None:
    """Integers written at once into one cell of a float array: the batch's violations and
    resolutions show the values (1, 2, 3) and say "write 1, 2 and 3", as a single run does
    (not '1.0'), and the cell ends as in the single run."""

    def make(m: Machine, arrays: dict[str, Any]) -> Any:
        def program() -> Any:
            pid = m.processors(3)
            (x,) = yield Step(pid, reads=[Read(arrays["ip"], iota(3))])
            yield Step(pid, writes=[Write(arrays["fo"], np.zeros(3, dtype=np.int64), x)])
        return program(), {"fo": arrays["fo"]}

    rows = {"ip": np.array([[1, 2, 3], [2, 2, 2], [0, 5, 0]]), "fo": (1, {"dtype": float})}
    _against_singles(rows, make, model)
    m = Machine(model, batch=3)
    ip, fo = m.array("ip", values=rows["ip"]), m.array("fo", 1, dtype=float)
    m.run(make(m, {"ip": ip, "fo": fo})[0])
    if model in ("crcw-common", "crcw-collision", "crcw-tolerant"):
        record = (m.violations + m.resolutions)[0]
        assert record.values == (1, 2, 3)
        assert all(type(v) is int for v in record.values)
        if model != "crcw-tolerant" and model != "crcw-collision":
            assert "write 1, 2 and 3 to fo[0]" in record.message
    assert fo.to_numpy().dtype == np.float64
