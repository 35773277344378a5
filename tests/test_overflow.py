"""int64 overflow in register operations fails the run, and the program cannot see it.

The reference is Python's own integers (unbounded): an operation overflows exactly when the
exact result leaves [-2**63, 2**63 - 1].
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import IntegerOverflowError, Machine, PRAMError, Read, Step, Write, iota
from pram.step import Program

LOW, HIGH = -(2**63), 2**63 - 1
FIX = (
    "use dtype=float for reals, or reduce modulo a bound (np.remainder) before the values "
    "outgrow 2**63 - 1"
)


def run_op(values: list[int], op: Callable[[Any], Any]) -> tuple[Machine, Any]:
    """Read ``values`` (one per processor), apply ``op``, write the result back."""
    m = Machine()
    a = m.array("a", values=values)
    n = len(values)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(n)
        x, = yield Step(pid, reads=[Read(a, iota(n))])
        yield Step(pid, writes=[Write(a, iota(n), op(x))])

    return m, program(m)


def test_the_error_is_a_pram_error_and_a_builtin_overflow_error() -> None:
    assert issubclass(IntegerOverflowError, PRAMError)
    assert issubclass(IntegerOverflowError, OverflowError)


def test_an_overflowing_add_fails_the_run_naming_processor_operation_and_fix() -> None:
    m, program = run_op([1, 2, HIGH, 5], lambda x: x + 1)
    with pytest.raises(IntegerOverflowError) as error:
        m.run(program)
    assert str(error.value) == (
        "int64 overflow in add: processor 2 computed 9223372036854775807 + 1, beyond the "
        f"int64 range, in the work before step 2; {FIX}"
    )
    assert (error.value.operation, error.value.processor, error.value.step) == ("add", 2, 2)
    assert error.value.operands == (HIGH, 1)
    assert m.arrays["a"].to_numpy().tolist() == [1, 2, HIGH, 5]  # the next step never ran
    again = pickle.loads(pickle.dumps(error.value))
    assert type(again) is IntegerOverflowError and again.processor == 2


OPERATIONS: list[tuple[str, Callable[[Any], Any], Callable[[int], int]]] = [
    ("add", lambda x: x + 7, lambda v: v + 7),
    ("add", lambda x: 7 + x, lambda v: 7 + v),
    ("add", lambda x: x + x, lambda v: v + v),
    ("subtract", lambda x: x - 7, lambda v: v - 7),
    ("subtract", lambda x: 7 - x, lambda v: 7 - v),
    ("subtract", lambda x: x - (x // 2 - 1), lambda v: v - (v // 2 - 1)),
    ("multiply", lambda x: x * 3, lambda v: v * 3),
    ("multiply", lambda x: x * x, lambda v: v * v),
    ("square", lambda x: np.square(x), lambda v: v * v),
    ("negative", lambda x: -x, lambda v: -v),
    ("absolute", lambda x: np.abs(x), abs),
    ("left_shift", lambda x: x << 3, lambda v: v << 3),
    ("power", lambda x: x ** 3, lambda v: v**3),
    ("add", lambda x: np.add(x, 7), lambda v: v + 7),
    ("floor_divide", lambda x: x // -1, lambda v: v // -1),
]


def inplace_add(x: Any) -> Any:
    x += 7
    return x


OPERATIONS.append(("add", inplace_add, lambda v: v + 7))


@pytest.mark.parametrize(("name", "op", "exact"), OPERATIONS)
@settings(max_examples=20, deadline=None)
@given(values=st.lists(st.integers(LOW, HIGH) | st.sampled_from([LOW, HIGH, 0, -1, 1, 2**31]),
                       min_size=1, max_size=6))
def test_overflow_is_raised_exactly_when_python_ints_leave_int64(
    name: str, op: Callable[[Any], Any], exact: Callable[[int], int], values: list[int]
) -> None:
    wrong = [i for i, v in enumerate(values) if not LOW <= exact(v) <= HIGH]
    m, program = run_op(values, op)
    if not wrong:
        m.run(program)
        assert m.arrays["a"].to_numpy().tolist() == [exact(v) for v in values]
        return
    with pytest.raises(IntegerOverflowError) as error:
        m.run(program)
    assert error.value.operation == name
    assert error.value.processor == wrong[0]  # ids 0.. on a fresh machine: the first wrong one


def test_the_program_cannot_catch_it() -> None:
    """The operation returns as usual; the program's own except learns nothing, and the run
    fails before its next step."""
    m = Machine()
    a = m.array("a", values=[HIGH, 0])
    seen: list[str] = []

    def program(m: Machine) -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(a, iota(2))])
        try:
            y = x + 1
            seen.append("went on")
        except OverflowError:
            seen.append("caught")
            y = x
        yield Step(pid, writes=[Write(a, iota(2), y)])
        seen.append("after the step")

    with pytest.raises(IntegerOverflowError):
        m.run(program(m))
    assert seen == ["went on"]
    assert a.to_numpy().tolist() == [HIGH, 0]


def test_an_overflow_in_the_last_work_fails_the_run_as_it_ends() -> None:
    m = Machine()
    a = m.array("a", values=[LOW])

    def program(m: Machine) -> Program[int]:
        x, = yield Step(m.processors(1), reads=[Read(a, iota(1))])
        _ = -x
        return 7

    with pytest.raises(IntegerOverflowError, match=r"^int64 overflow in negative: processor 0 "):
        m.run(program(m))


def test_the_first_overflow_is_the_one_reported_and_the_next_run_starts_clean() -> None:
    m = Machine()
    a = m.array("a", values=[HIGH, 1])

    def program(m: Machine, first: bool) -> Program[None]:
        x, = yield Step(m.processors(2), reads=[Read(a, iota(2))])
        if first:
            _ = x * 2
            _ = x + 1
        yield Step(m.processors(2), reads=[Read(a, iota(2))])

    with pytest.raises(IntegerOverflowError, match="overflow in multiply"):
        m.run(program(m, True))
    m.run(program(m, False))  # nothing left over from the failed run


def test_near_the_edge_and_reals_do_not_fail() -> None:
    m, program = run_op([HIGH - 1, LOW + 1], lambda x: np.where(x > 0, x + 1, x - 1))
    m.run(program)
    assert m.arrays["a"].to_numpy().tolist() == [HIGH, LOW]
    m = Machine()
    a = m.array("a", values=[1e308], dtype=float)

    def program_reals(m: Machine) -> Program[None]:
        pid = m.processors(1)
        x, = yield Step(pid, reads=[Read(a, iota(1))])
        yield Step(pid, writes=[Write(a, iota(1), x * 10)])

    m.run(program_reals(m))
    assert a.to_numpy().tolist() == [float("inf")]


def test_modular_arithmetic_stays_within_int64() -> None:
    """The fix the message names: reduce modulo a bound before the values grow."""
    p = 2**31 - 1
    m, program = run_op([p - 1, p - 2], lambda x: (x * x) % p)
    m.run(program)
    assert m.arrays["a"].to_numpy().tolist() == [((p - 1) ** 2) % p, ((p - 2) ** 2) % p]


@pytest.mark.parametrize("bad", [1e300, float("nan"), float("-inf"), 2.0**63])
def test_reals_converted_beyond_int64_fail_the_run(bad: float) -> None:
    m = Machine()
    a = m.array("a", values=[1.5, bad], dtype=float)
    b = m.array("b", size=2)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(a, iota(2))])
        yield Step(pid, writes=[Write(b, iota(2), np.rint(x).astype(np.int64))])

    with pytest.raises(IntegerOverflowError, match=r"^int64 overflow in astype: processor 1 "):
        m.run(program(m))


def test_reals_within_int64_convert() -> None:
    m = Machine()
    a = m.array("a", values=[1.5, -2.0**63, 2.0**62], dtype=float)
    b = m.array("b", size=3)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(3)
        x, = yield Step(pid, reads=[Read(a, iota(3))])
        yield Step(pid, writes=[Write(b, iota(3), np.rint(x).astype(np.int64))])

    m.run(program(m))
    assert b.to_numpy().tolist() == [2, LOW, 2**62]


def test_a_modular_program_wraps_and_counts_the_same() -> None:
    """pram.modular declares arithmetic modulo 2**64: the same wrapped words numpy gives, the
    same counts, no error; outside it the same program fails."""
    from pram import modular

    def program(m: Machine, a: Any) -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(a, iota(2))])
        yield Step(pid, writes=[Write(a, iota(2), x * 3 + 1)])

    m = Machine()
    a = m.array("a", values=[HIGH, 5])
    m.run(modular(program(m, a)))
    wrapped = (np.array([HIGH, 5], np.int64) * 3 + 1).tolist()
    assert a.to_numpy().tolist() == wrapped
    plain = Machine()
    b = plain.array("a", values=[1, 5])
    plain.run(program(plain, b))
    assert (m.cost.time, m.cost.work, m.cost.local) == (
        plain.cost.time, plain.cost.work, plain.cost.local)
    m2 = Machine()
    with pytest.raises(IntegerOverflowError):
        m2.run(program(m2, m2.array("a", values=[HIGH, 5])))


EDGES = st.integers(LOW, HIGH) | st.sampled_from([LOW, HIGH, LOW + 1, HIGH - 1, 0, -1, 1,
                                                   2**62, -(2**62)])


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(EDGES, EDGES), min_size=1, max_size=6),
       name=st.sampled_from(["add", "subtract", "add in place"]))
def test_two_registers_overflow_exactly_when_python_ints_leave_int64(
    pairs: list[tuple[int, int]], name: str
) -> None:
    """A sum or difference of two registers of words (the sign test of the result decides)
    fails the run exactly where Python's integers leave int64, naming the first processor."""
    exact = (lambda u, v: u - v) if name == "subtract" else (lambda u, v: u + v)
    wrong = [i for i, (u, v) in enumerate(pairs) if not LOW <= exact(u, v) <= HIGH]
    m = Machine()
    n = len(pairs)
    a = m.array("a", values=[u for u, _ in pairs])
    b = m.array("b", values=[v for _, v in pairs])

    def program(m: Machine) -> Program[None]:
        pid = m.processors(n)
        x, y = yield Step(pid, reads=[Read(a, iota(n)), Read(b, iota(n))])
        if name == "add in place":
            x += y
            z = x
        else:
            z = x - y if name == "subtract" else x + y
        yield Step(pid, writes=[Write(a, iota(n), z)])

    if not wrong:
        m.run(program(m))
        assert a.to_numpy().tolist() == [exact(u, v) for u, v in pairs]
        return
    with pytest.raises(IntegerOverflowError) as error:
        m.run(program(m))
    assert error.value.operation == ("subtract" if name == "subtract" else "add")
    assert error.value.processor == wrong[0]
