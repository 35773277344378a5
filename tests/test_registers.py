"""Honest by construction: what a program can and cannot do with the registers its reads return.

A catalogue of cheat programs, one per refused form, each refused at run time with
:class:`pram.HonestyError` naming the operation; and honest counterparts that run with their
answers and counts checked against brute force.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
import string
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import (
    Array,
    Cost,
    HonestyError,
    Machine,
    PRAMError,
    Program,
    Read,
    Register,
    Step,
    Values,
    Write,
    hold,
    iota,
)
from pram.engine.conflicts import _Flat
from pram.registers import contents, processors
from pram.registers.allowed import ESCAPE, HOST, REDUCE, SCAN, SEARCH, SORT, THROUGH_MEMORY
from tests.helpers import read_all

#: The fixes the refusals name, as the register machinery words them.
MOVE = THROUGH_MEMORY
STACK = (
    f"puts registers side by side as one, which moves values between processors; {MOVE}; to "
    "combine a processor's own registers pairwise: np.maximum(x, y), or "
    "functools.reduce(np.maximum, [x, y, z])"
)
SEALED = (
    "while a program runs reaches memory outside the machine's steps; read a with a Read in "
    "a step, or call to_numpy() after the run"
)
LEDGER = "only the machine counts: run steps, and read m.cost after the run"

Cheat = Callable[[Machine, Array, Register], Any]

#: One cheat per refused form: (name, what the program does after reading a, whole message).
#: What the escape's refusal adds: the lookup that is not an escape.
LOOKUP = (
    "; to select entries of a plain array by a register mask (i[mask]), make it a register of "
    "the same processors first: hold(pid, i)[mask]; a lookup in a constant table "
    "(np.take(table, x), table[x]) is np.choose(x, table); a list of registers given to numpy "
    "(np.maximum.reduce([x, y]), np.array([x, y])) is made a plain array too: combine a "
    "processor's own registers pairwise: np.maximum(x, y), or functools.reduce(np.maximum, "
    "[x, y, z])"
)
ASARRAY = (
    "np.asarray of a register, or a plain array indexed by a register (an escape to a plain "
    "array)"
)
BRANCH = (
    "bool() of a register (an if, while, and, or or not on register values, as in `if x[0] > "
    "3:`, where x[0] is still a register: processor 0's value, not a number) would turn data "
    "into host control flow; decide per processor with np.where(x > 3, a, b) or where= masks, "
    "end a loop on data with a loop test (pram.Until), or read the value after the run"
)

CHEATS: list[tuple[str, Cheat, str]] = [
    ("np.sort", lambda m, a, x: np.sort(x), f"np.sort {SORT}"),
    ("a function held in a variable", lambda m, a, x: (lambda f: f(x))(np.sort),
     f"np.sort {SORT}"),
    ("getattr", lambda m, a, x: getattr(np, "cumsum")(x),  # noqa: B009
     f"np.cumsum {SCAN}"),
    ("__call__", lambda m, a, x: np.lexsort.__call__((x,)), f"np.lexsort {SORT}"),
    ("a private engine helper", lambda m, a, x: _Flat(x, x, x, x).by_cell(keep_last=None),
     f"np.lexsort {SORT}"),
    ("list.index", lambda m, a, x: list(x).index(5), f"iterating over a register {HOST}"),
    ("tolist", lambda m, a, x: x.tolist().index(5), f"register.tolist() {HOST}"),
    ("np.equal.outer", lambda m, a, x: np.equal.outer(x, x),
     "np.equal.outer pairs every processor's value with every other's; compare values in "
     f"machine steps, {MOVE}"),
    ("fancy indexing by data", lambda m, a, x: x[x % 4],
     "reading register[index] with an index that is a register (fancy indexing by data) "
     "moves values between processors; a processor may compute an address from its own "
     f"registers and read it in a step: {MOVE}"),
    ("to_numpy mid-run", lambda m, a, x: a.to_numpy(), f"a.to_numpy() {SEALED}"),
    ("values mid-run", lambda m, a, x: a.values, f"reading a.values {SEALED}"),
    ("a host write mid-run", lambda m, a, x: a.values.__setitem__(0, 7),
     f"reading a.values {SEALED}"),
    ("m.cost.work -= t", lambda m, a, x: setattr(m.cost, "work", m.cost.time - 4),
     f"m.cost.work = ... while a program runs rewrites the ledger; {LEDGER}"),
    ("m.cost = Cost()", lambda m, a, x: setattr(m, "cost", Cost()),
     f"m.cost = ... while a program runs replaces the ledger; {LEDGER}"),
    ("a reduction method", lambda m, a, x: x.sum(), f"register.sum {REDUCE}"),
    ("np.max", lambda m, a, x: np.max(x), f"np.max {REDUCE}"),
    ("np.any", lambda m, a, x: np.any(x > 4), f"np.any {REDUCE}"),
    ("np.add.reduce", lambda m, a, x: np.add.reduce(x), f"np.add.reduce {REDUCE}"),
    ("np.add.accumulate", lambda m, a, x: np.add.accumulate(x), f"np.add.accumulate {SCAN}"),
    ("np.add.at", lambda m, a, x: np.add.at(np.zeros(4), x, 1),
     f"np.add.at combines values of many processors in one place; {MOVE}"),
    ("np.searchsorted", lambda m, a, x: np.searchsorted(x, 3), f"np.searchsorted {SEARCH}"),
    ("np.unique", lambda m, a, x: np.unique(x), f"np.unique {SEARCH}"),
    ("np.where with one argument", lambda m, a, x: np.where(x > 4),
     f"np.where with one argument {SEARCH}"),
    ("np.roll", lambda m, a, x: np.roll(x, 1), f"np.roll moves values between processors; {MOVE}"),
    ("np.concatenate", lambda m, a, x: np.concatenate([x, x]),
     f"np.concatenate {STACK}"),
    ("np.repeat", lambda m, a, x: np.repeat(x, 2),
     f"np.repeat moves values between processors; {MOVE}"),
    ("np.tile", lambda m, a, x: np.tile(x, 2), f"np.tile moves values between processors; {MOVE}"),
    ("np.stack", lambda m, a, x: np.stack([x, x]),
     f"np.stack {STACK}"),
    ("np.take", lambda m, a, x: np.take(x, [0, 1]),
     f"np.take moves values between processors; {MOVE}"),
    ("slices used as other processors' values", lambda m, a, x: x[1:] - x[:-1],
     "np.subtract on registers of different processors combines values of different "
     f"processors; {MOVE}"),
    ("broadcasting to other processors", lambda m, a, x: x + np.zeros((4, 1), np.int64),
     "np.add giving shape (4, 4) from registers of shape (4,) spreads values over other "
     f"processors (an operand broadcast beyond the register's shape); {MOVE}"),
    ("int", lambda m, a, x: int(x[0:1]), f"int() of a register {HOST}"),
    ("a data-dependent branch", lambda m, a, x: 1 if x[0:1] > 4 else 0,
     BRANCH),
    ("float", lambda m, a, x: float(x[0:1]), f"float() of a register {HOST}"),
    ("__index__", lambda m, a, x: [1, 2, 3][x[0:1]],
     f"using a register as a Python index (__index__) {HOST}"),
    ("item", lambda m, a, x: x.item(0), f"register.item() {HOST}"),
    ("a ufunc made from a Python function", lambda m, a, x: np.frompyfunc(print, 1, 1)(x),
     "the ufunc 'print (vectorized)' is not one of numpy's own elementwise operations (a "
     "Python function applied to register values would hand them to the host); use numpy's "
     "ufuncs"),
    ("np.asarray", lambda m, a, x: np.asarray(x),
     f"{ASARRAY} {ESCAPE}{LOOKUP}"),
    ("a plain array filled from a register", lambda m, a, x: np.zeros(4).__setitem__(
        slice(None), x),
     f"{ASARRAY} {ESCAPE}{LOOKUP}"),
    ("a plain array indexed by a register mask", lambda m, a, x: np.arange(4)[x > 4],
     f"{ASARRAY} {ESCAPE}{LOOKUP}"),
    ("a host condition on one processor's value", lambda m, a, x: 1 if x[0] > 3 else 0, BRANCH),
]


def cheat_program(m: Machine, a: Array, cheat: Cheat) -> Program[None]:
    """Read ``a`` (one processor per cell), then do what ``cheat`` does with the register."""
    pid, x = yield from read_all(m, a, a.size)
    cheat(m, a, x)
    yield Step(pid, writes=[Write(a, pid, x)])


@pytest.mark.parametrize(("name", "cheat", "message"), CHEATS, ids=[c[0] for c in CHEATS])
def test_each_cheat_is_refused_at_run_time_naming_the_operation(
    name: str, cheat: Cheat, message: str
) -> None:
    """Each refused form raises HonestyError while the program runs, naming the operation."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))
    with pytest.raises(HonestyError, match=re.escape(message) + "$"):
        m.run(cheat_program(m, a, cheat))


def test_the_catalogue_covers_at_least_fifteen_forms() -> None:
    """The catalogue holds at least 15 distinct cheats."""
    assert len({name for name, _, _ in CHEATS}) >= 15


def test_honesty_error_is_a_pram_error() -> None:
    """HonestyError is caught by the project's error base."""
    assert issubclass(HonestyError, PRAMError)


# ---- use by the right processors ----------------------------------------------------------


def wrong_owner(m: Machine, a: Array, use: str) -> Program[None]:
    """Write (or index, or mask) with a register reversed: other processors' values."""
    pid, x = yield from read_all(m, a, a.size)
    other = x[::-1]
    if use == "value":
        yield Step(pid, writes=[Write(a, pid, other)])
    elif use == "index":
        yield Step(pid, reads=[Read(a, other % a.size)])
    else:
        yield Step(pid, writes=[Write(a, pid, 0, where=other > 4)])


@pytest.mark.parametrize(
    ("use", "what"),
    [("value", "the value written to a"), ("index", "the index into a"),
     ("mask", "the where mask of an access to a")],
)
def test_a_register_of_other_processors_is_refused_by_the_step(use: str, what: str) -> None:
    """A register used as value, index or mask by other processors than its own is refused."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))
    message = (
        f"{what} in step 2 is a register of other processors than the step's (or in another "
        f"order); {MOVE}"
    )
    with pytest.raises(HonestyError, match=re.escape(message) + "$"):
        m.run(wrong_owner(m, a, use))


def test_processors_given_as_a_register_of_values_are_refused() -> None:
    """A step's processors may be a register only if it holds processor ids."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))

    def program() -> Program[None]:
        _, x = yield from read_all(m, a, 4)
        yield Step(x)  # type: ignore[arg-type]

    message = (
        "the processors of step 2 are a register that does not hold processor ids; select the "
        "processors that act from hold(pid, pid) with a mask"
    )
    with pytest.raises(HonestyError, match=re.escape(message) + "$"):
        m.run(program())


# ---- honest counterparts -------------------------------------------------------------------


def ran(program: Callable[[Machine, Array], Program[None]],
        values: list[int]) -> tuple[Machine, Array]:
    """A machine that ran ``program`` on an array ``a`` of ``values``, and the array."""
    m = Machine()
    a = m.array("a", values=np.array(values))
    m.run(program(m, a))
    return m, a


def elementwise(m: Machine, a: Array) -> Program[None]:
    """Each processor replaces its value by an np.where of it, with a register mask."""
    pid, x = yield from read_all(m, a, a.size)
    y = np.where(x > 4, x - 1, (x + 1).astype(np.int64))
    yield Step(pid, writes=[Write(a, pid, np.clip(y, 0, 6), where=x != 3)])


@given(st.lists(st.integers(0, 9), min_size=1, max_size=20))
@settings(max_examples=30, deadline=None)
def test_elementwise_work_and_register_masks_run(values: list[int]) -> None:
    """np.where, astype, clip and a where mask computed from registers give the brute force."""
    m, a = ran(elementwise, values)
    expected = [v if v == 3 else min(max(v - 1 if v > 4 else v + 1, 0), 6) for v in values]
    assert a.to_numpy().tolist() == expected
    assert (m.cost.time, m.cost.work, m.cost.reads) == (2, 2 * len(values), len(values))
    assert m.cost.writes == sum(v != 3 for v in values)


def reverse(m: Machine, a: Array) -> Program[None]:
    """Move every value to the mirrored cell: through memory, a read then a write."""
    n = a.size
    pid, x = yield from read_all(m, a, n)
    yield Step(pid, writes=[Write(a, n - 1 - pid, x)])


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=20))
@settings(max_examples=30, deadline=None)
def test_movement_through_memory_runs(values: list[int]) -> None:
    """Values move between processors by a write and a later read: a reversal."""
    m, a = ran(reverse, values)
    assert a.to_numpy().tolist() == values[::-1]
    assert (m.cost.time, m.cost.work) == (2, 2 * len(values))


def list_ranks(m: Machine, succ: Array, rank: Array) -> Program[None]:
    """Pointer jumping (Wyllie): each node follows its own successor register, ceil(log n)
    rounds; the addresses come from the processor's own registers."""
    n = succ.size
    pid = m.processors(n)
    rounds = max(1, (n - 1).bit_length())
    for _ in range(rounds):
        nxt, r = yield Step(pid, reads=[Read(succ, pid), Read(rank, pid)])
        alive = nxt != pid
        far, far_rank = yield Step(
            pid, reads=[Read(succ, nxt, where=alive), Read(rank, nxt, where=alive)]
        )
        yield Step(
            pid,
            writes=[
                Write(rank, pid, r + far_rank, where=alive),
                Write(succ, pid, far, where=alive),
            ],
        )


@given(st.permutations(list(range(12))))
@settings(max_examples=20, deadline=None)
def test_pointer_jumping_with_own_addresses_runs(order: list[int]) -> None:
    """List ranking by pointer jumping gives every node its distance to the tail (CREW)."""
    n = len(order)
    successor = np.arange(n)
    for a, b in itertools.pairwise(order):
        successor[a] = b
    m = Machine("crew")
    succ = m.array("succ", values=successor)
    rank = m.array("rank", values=(successor != np.arange(n)).astype(np.int64))
    m.run(list_ranks(m, succ, rank))
    expected = [0] * n
    for position, node in enumerate(order):
        expected[node] = n - 1 - position
    assert rank.to_numpy().tolist() == expected
    assert m.cost.time == 3 * 4 and m.violations == []


def acting(m: Machine, a: Array) -> Program[None]:
    """Only the processors holding more than 4 act: they select themselves with a mask."""
    pid, x = yield from read_all(m, a, a.size)
    wants = x > 4
    who = hold(pid, pid)[wants]
    yield Step(who, writes=[Write(a, hold(pid, pid)[wants], x[wants] * 10)])


@given(st.lists(st.integers(0, 9), min_size=1, max_size=20))
@settings(max_examples=30, deadline=None)
def test_processors_that_decide_to_act_are_the_only_ones_counted(values: list[int]) -> None:
    """A step of the processors that selected themselves counts exactly them as work."""
    m, a = ran(acting, values)
    assert a.to_numpy().tolist() == [v * 10 if v > 4 else v for v in values]
    assert m.cost.work == len(values) + sum(v > 4 for v in values)


def test_a_register_file_keeps_each_value_with_its_processor() -> None:
    """hold() and processor-preserving assignment make a register file; the write uses it."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))

    def program() -> Program[None]:
        pid = m.processors(4)
        file = hold(pid, -1)
        (x,) = yield Step(pid[1:], reads=[Read(a, pid[1:])])
        file[1:] = x
        yield Step(pid, writes=[Write(a, pid, file)])

    m.run(program())
    assert a.to_numpy().tolist() == [-1, 3, 8, 1]


def test_assigning_a_register_of_other_processors_is_refused() -> None:
    """register[key] = value needs value to belong to exactly the processors at key."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))

    def program() -> Program[None]:
        _, x = yield from read_all(m, a, 4)
        x[:2] = x[2:]

    message = (
        "register[key] = value with a value of other processors a register holds each "
        f"processor's own values; {MOVE}"
    )
    with pytest.raises(HonestyError, match=re.escape(message) + "$"):
        m.run(program())


# ---- before and after a run ------------------------------------------------------------------


def test_memory_and_ledger_open_before_and_after_a_run() -> None:
    """to_numpy, values and the ledger work before and after run, and a register is output."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3]))
    a.values[0] = 6  # host input before the run

    def program() -> Program[Register]:
        _, x = yield from read_all(m, a, 2)
        return x + 1

    x = m.run(program())
    assert a.to_numpy().tolist() == [6, 3] and a.values.tolist() == [6, 3]
    assert x.tolist() == [7, 4] and np.asarray(x).tolist() == [7, 4]
    with pytest.raises(HonestyError, match=r"m.cost.work = ... would rewrite the machine's "
                       r"ledger; .* take m.cost.fresh\(\)"):
        m.cost.work = 0  # after the run the ledger is still the machine's
    mine = m.cost.fresh()
    mine.work = 0  # a copy of one's own may change
    assert (mine.work, m.cost.work) == (0, 2)


def test_the_ledger_reads_live_time_during_a_run_and_refuses_the_rest() -> None:
    """m.cost.time and the sizes are current during a run (time after the first step is 1);
    work, the profile and local work count processors chosen by data: refused until the end."""
    m = Machine()
    seen: list[int] = []
    refused: list[str] = []

    def program() -> Program[None]:
        pid = m.processors(3)
        yield Step(pid)
        seen.extend([m.cost.time, m.cost.memory_cells, len(m.cost.step_phases)])
        for name in ("work", "profile", "reads", "writes", "max_processors", "local",
                     "max_local", "phases"):
            with pytest.raises(HonestyError, match=f"^m.cost.{name} while a program runs"):
                getattr(m.cost, name)
            refused.append(name)
        with pytest.raises(HonestyError):
            m.cost.brent(2)

    m.run(program())
    assert seen == [1, 0, 1] and len(refused) == 8
    assert m.cost.work == 3 and m.cost.profile == [3]


# ---- the observer contract -----------------------------------------------------------------


class Recorder:
    """An observer that writes down what it is told."""

    def __init__(self) -> None:
        self.steps: list[tuple[int, int, list[int]]] = []
        self.operations: list[tuple[str, int, bool]] = []

    def step(self, number: int, steps: Any, replies: Any) -> None:
        self.steps.append((number, len(steps), [len(r) for r in replies]))

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        self.operations.append((name, len(operands), isinstance(result, Register)))


def test_the_observer_sees_every_step_and_elementwise_operation() -> None:
    """Steps are reported after they execute; operations by name, with operands and result."""
    recorder = Recorder()
    m = Machine(observer=recorder)
    a = m.array("a", values=np.array([5, 3, 8, 1]))
    m.run(elementwise(m, a))
    assert recorder.steps == [(1, 1, [1]), (2, 1, [0])]
    assert recorder.operations == [
        ("greater", 2, True), ("subtract", 2, True), ("add", 2, True), ("astype", 2, True),
        ("where", 3, True), ("clip", 3, True), ("not_equal", 2, True),
    ]


def test_a_read_register_belongs_to_the_steps_processors() -> None:
    """contents and processors give a read's raw values (0 where masked) and its owners."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))
    got: list[Values] = []

    def program() -> Program[None]:
        pid = m.processors(4)
        got.append((yield Step(pid, reads=[Read(a, pid, where=pid % 2 == 0)])))

    m.run(program())
    (x,) = got[0]
    assert contents(x).tolist() == [5, 0, 8, 0]
    assert processors(x).tolist() == [0, 1, 2, 3]


def test_the_ids_a_register_belongs_to_cannot_be_changed() -> None:
    """Renaming processors in place (to move values without memory) is refused by numpy."""
    m = Machine()
    a = m.array("a", values=np.array([5, 3, 8, 1]))

    def program() -> Program[None]:
        pid = m.processors(4) + 0  # a writable copy of the ids
        (x,) = yield Step(pid, reads=[Read(a, pid)])
        pid[:] = pid[::-1]
        yield Step(pid, writes=[Write(a, pid, x)])

    with pytest.raises(HonestyError, match="is a register of other processors than the step's"):
        m.run(program())


def test_a_run_in_one_thread_leaves_other_threads_unsealed() -> None:
    """The seal is per run: while one thread runs a program, another uses an earlier run's
    output."""
    import threading

    def read_every_cell(m: Machine, a: Array) -> Program[Register]:
        _, x = yield from read_all(m, a, a.size)
        return x

    host = Machine()
    output = host.run(read_every_cell(host, host.array("a", values=np.array([7, 8]))))
    started, release = threading.Event(), threading.Event()

    def waiting(m: Machine) -> Program[None]:
        yield Step(m.processors(1))
        started.set()
        release.wait(10)

    worker = threading.Thread(target=Machine().run, args=(waiting(Machine()),))
    worker.start()
    try:
        assert started.wait(10)
        assert int(output[1]) == 8 and np.asarray(output).tolist() == [7, 8]
    finally:
        release.set()
        worker.join(10)


@pytest.mark.parametrize("threshold", [9, 2, 0], ids=["none chosen", "some", "all"])
@pytest.mark.parametrize("batch", [None, 2], ids=["one machine", "a batch"])
def test_complex_into_a_real_register_is_refused_whatever_the_mask(
    threshold: int, batch: int | None,
) -> None:
    """``f[x > t] = z[x > t]`` (z complex, f real) takes one cast rule over the full width:
    refused on the dtypes alone, for every mask (it warned only when some processor was
    chosen: a bit of data with no step, and in a batch one instance's bit seen by all)."""
    values = np.array([1, 2, 3, 4]) if batch is None else np.array([[1, 2, 3, 4], [0, 0, 0, 0]])
    m = Machine("erew") if batch is None else Machine("erew", batch=batch)
    a = m.array("a", values=values)
    caught: list[str] = []

    def program() -> Program[None]:
        pid, x = yield from read_all(m, a, 4)
        f, z = x.astype(float), x + 1j
        with pytest.raises(TypeError) as masked:
            f[x > threshold] = z[x > threshold]
        with pytest.raises(TypeError) as scalar:
            f[x > threshold] = 1j
        with pytest.raises(TypeError) as whole:
            f[:] = z
        caught.extend(str(refused.value) for refused in (masked, scalar, whole))
        f[x > threshold] = np.real(z[x > threshold])  # the honest way: the real part
        yield Step(pid, writes=[Write(a, pid, f.astype(np.int64))])

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning either, for any mask
        m.run(program())
    assert set(caught) == {
        "register[key] = complex values into a register of float64 would discard their "
        "imaginary parts (whatever the key selects); assign np.real(value), or make the "
        "register complex first (register.astype(complex))"}
    assert a.to_numpy().tolist() == values.tolist()


#: Ways to read an attribute by naming it, without a call the program's source would show.
ATTRIBUTE_PATHS: dict[str, Callable[[Any], Any]] = {
    "str.format": lambda x: f"{x._values}",
    "a keyword field": lambda x: f"{x._values}",
    "Formatter.get_field": lambda x: string.Formatter().get_field("0._values", (x,), {}),
    "operator.attrgetter": lambda x: operator.attrgetter("_values")(x),
    "getattr": lambda x: getattr(x, "_values"),  # noqa: B009
}


@pytest.mark.parametrize("path", sorted(ATTRIBUTE_PATHS))
def test_no_attribute_path_reaches_a_registers_values(path: str) -> None:
    """``"{0._values}".format(x)`` gave a register's raw values as text mid-run: the values
    now sit in a slot no name leads to (pram._held), so every path that names an attribute
    finds nothing, during the run and after it (when the register's output is its methods':
    tolist, np.asarray); formatting a register itself still shows its shape."""
    reach = ATTRIBUTE_PATHS[path]
    m = Machine("erew")
    a = m.array("a", values=np.array([5, 3, 8, 1]))
    kept: list[Register] = []

    def program() -> Program[None]:
        _, x = yield from read_all(m, a, 4)
        with pytest.raises(AttributeError, match="a Register has no attribute '_values'"):
            reach(x)
        assert f"{x}" == "Register(shape=(4,), dtype=int64)"
        kept.append(x)

    m.run(program())
    with pytest.raises(AttributeError, match="a Register has no attribute '_values'"):
        reach(kept[0])
    assert kept[0].tolist() == [5, 3, 8, 1]


@pytest.mark.parametrize("field", ["{0._processors.mask}", "{0._processors}",
                                   "{0._selections}", "{1._selections.mask}"])
def test_no_attribute_path_reaches_the_processors_chosen_by_data(field: str) -> None:
    """Which processors chose themselves (the mask, their ids, their number) is data: the
    ids of a register and the selections of its mask sit in slots no name leads to as well,
    so ``"{0._processors.mask}".format(who)`` finds nothing mid-run."""
    m = Machine("erew")
    a = m.array("a", values=np.array([5, 3, 8, 1]))

    def program() -> Program[None]:
        pid, x = yield from read_all(m, a, 4)
        mask = x > 4
        who = hold(pid, pid)[mask]
        with pytest.raises(AttributeError, match="a Register has no attribute '_"):
            field.format(who, mask)
        yield Step(who)

    m.run(program())
    assert m.cost.work == 4 + 2


def test_ndarray_methods_numpy_has_as_elementwise_functions_run() -> None:
    """x.clip(0, 2), x.round(), (x + 1j).real, .imag and .conj() were refused (outside
    batteries): they are numpy's functions of each processor's own value, charged as those; a
    missing method is a plain AttributeError naming it."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(4))
    f = m.array("f", values=np.array([0.4, 1.6, -2.5, 9.0]), dtype=float)
    said: list[str] = []

    def program() -> Program[None]:
        pid = m.processors(4)
        x, y = yield Step(pid, reads=[Read(a, iota(4)), Read(f, iota(4))])
        try:
            x.bogus  # noqa: B018
        except AttributeError as error:
            said.append(str(error))
        z = y * 1j + x
        yield Step(pid, writes=[Write(a, iota(4), x.clip(0, 2)),
                                Write(f, iota(4), y.round() + z.real + z.imag + z.conj().imag)])

    m.run(program())
    assert said == ["a Register has no attribute 'bogus'"]
    values = np.array([0.4, 1.6, -2.5, 9.0])
    z = values * 1j + np.arange(4)
    assert a.to_numpy().tolist() == np.clip(np.arange(4), 0, 2).tolist()
    assert f.to_numpy().tolist() == (np.round(values) + z.real + z.imag + z.conj().imag).tolist()
    assert m.cost.time == 2


def test_a_list_or_stack_of_registers_names_the_elementwise_way() -> None:
    """np.maximum.reduce([x, y]) and np.stack([x, y]).max(0) were refused with messages about
    escapes and moves (outside battery): the refusal names np.maximum(x, y) and reduce."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(4))
    said: list[str] = []

    def program() -> Program[None]:
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=[Read(a, iota(4))])
        for attempt in (lambda: np.maximum.reduce([x, x + 1]),
                        lambda: np.stack([x, x + 1]).max(0)):
            try:
                attempt()
            except HonestyError as error:
                said.append(str(error))
        yield Step(pid, writes=[Write(a, iota(4), functools.reduce(np.maximum, [x, x + 1]))])

    m.run(program())
    assert len(said) == 2
    assert all("np.maximum(x, y), or functools.reduce(np.maximum, [x, y, z])" in s for s in said)
    assert a.to_numpy().tolist() == [1, 2, 3, 4]
