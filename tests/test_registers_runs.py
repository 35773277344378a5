"""A register belongs to the run that made it (issue 33): one kept from an earlier run is
refused in every use while a later run goes on, of its machine (in any thread) or of any
machine in the program's thread; after its run, with no later run going on, it is output.

The cheat closed (outside battery, ``stash-register-same-machine``): a register read in run 1
kept in a host dict and written in run 2 as ``box['x'] + 0``, which carried run 1's values
into run 2 without memory (the ended run's register was output, and ``+ 0`` a plain array).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pram import HonestyError, Machine, Program, Read, Register, Step, Until, Write, hold, iota
from pram.registers import contents

N = 4
ENDED = "a register of an earlier run is used while a later run goes on"


def _kept(m: Machine) -> Register:
    """A register read in a run of ``m`` and kept past it (what a host dict would keep)."""
    a = m.array("kept", values=np.array([3, 1, 2, 0]))

    def first() -> Program[Register]:
        x, = yield Step(m.processors(N), reads=[Read(a, iota(N))])
        return x

    return m.run(first())


#: Every use of a kept register inside a later run: (name, the use).
USES: list[tuple[str, Callable[[Machine, Register, Any], Any]]] = [
    ("arithmetic", lambda m, x, o: x + 0),
    ("a ufunc", lambda m, x, o: np.maximum(x, 1)),
    ("np.where", lambda m, x, o: np.where(x > 1, x, 0)),
    ("astype", lambda m, x, o: x.astype(float)),
    ("np.asarray", lambda m, x, o: np.asarray(x)),
    ("tolist", lambda m, x, o: x.tolist()),
    ("int", lambda m, x, o: int(x[0])),
    ("iteration", lambda m, x, o: list(x)),
    ("repr", lambda m, x, o: repr(x)),
    ("contents", lambda m, x, o: contents(x)),
    ("hold", lambda m, x, o: hold(m.processors(N), x)),
    ("a selection", lambda m, x, o: x[x > 1]),
    ("an assignment", lambda m, x, o: x.__setitem__(0, 5)),
]

#: Every way a kept register enters a later run's step: (name, the step).
STEPS: list[tuple[str, Callable[[Machine, Register, Any], Any]]] = [
    ("a write's value", lambda m, x, o: Step(m.processors(N), writes=[Write(o, iota(N), x)])),
    ("a write's index", lambda m, x, o: Step(m.processors(N), writes=[Write(o, x, 0)])),
    ("a read's index", lambda m, x, o: Step(m.processors(N), reads=[Read(o, x)])),
    ("a where mask", lambda m, x, o: Step(m.processors(N), reads=[Read(o, iota(N), x > 1)])),
    ("processors", lambda m, x, o: Step(x, reads=[Read(o, 0)])),
]


@pytest.mark.parametrize("other", [False, True], ids=["same machine", "another machine"])
@pytest.mark.parametrize("use", [u for _, u in USES], ids=[n for n, _ in USES])
def test_a_register_of_an_earlier_run_is_refused_in_a_later_run(
        use: Callable[[Machine, Register, Any], Any], other: bool) -> None:
    m = Machine()
    kept = _kept(m)
    there = Machine() if other else m
    o = there.array("o", values=np.zeros(N, dtype=np.int64))

    def later() -> Program[None]:
        yield Step(there.processors(N), reads=[Read(o, iota(N))])
        use(there, kept, o)

    with pytest.raises(HonestyError, match=rf"{ENDED}|another run") as refused:
        there.run(later())
    assert "to memory before" in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("step", [s for _, s in STEPS], ids=[n for n, _ in STEPS])
def test_a_register_of_an_earlier_run_is_refused_in_a_later_step(
        step: Callable[[Machine, Register, Any], Any]) -> None:
    m = Machine()
    kept = _kept(m)
    o = m.array("o", values=np.zeros(N, dtype=np.int64))

    def later() -> Program[None]:
        yield step(m, kept, o)

    with pytest.raises(HonestyError, match=r"earlier run|another run") as refused:
        m.run(later())
    assert "\n" not in str(refused.value)
    assert o.to_numpy().tolist() == [0] * N


def test_the_outside_cheat_is_refused() -> None:
    """``stash-register-same-machine``: run 2 writes ``box['x'] + 0``, run 1's register."""
    box: dict[str, Register] = {}
    m = Machine()
    a, o = m.array("a", values=np.array([5, 6, 7, 8])), m.array("o", size=N)

    def p1() -> Program[None]:
        x, = yield Step(m.processors(N), reads=[Read(a, iota(N))])
        box["x"] = x

    def p2() -> Program[None]:
        yield Step(m.processors(N), writes=[Write(o, iota(N), box["x"] + 0)])

    m.run(p1())
    with pytest.raises(HonestyError, match=ENDED):
        m.run(p2())
    assert o.to_numpy().tolist() == [0] * N


def test_a_loop_test_of_a_later_run_cannot_take_an_earlier_register() -> None:
    m = Machine()
    kept = _kept(m)
    flag = m.array("flag", values=np.array([1]))

    def later() -> Program[None]:
        yield Until(flag, 0, m.processors(1))
        yield Until(flag, kept[0] * 0, m.processors(1))

    with pytest.raises(HonestyError, match=ENDED):
        m.run(later())


def test_a_thread_of_a_later_run_of_the_machine_cannot_read_it_either() -> None:
    """The seal of a kept register follows its machine, not the thread asking: a worker
    thread started by run 2 meets the same refusal."""
    m = Machine()
    kept = _kept(m)
    caught: list[BaseException] = []

    def later() -> Program[None]:
        yield Step(m.processors(1))

        def peek() -> None:
            try:
                kept.tolist()
            except BaseException as error:
                caught.append(error)

        worker = threading.Thread(target=peek)
        worker.start()
        worker.join(10)

    m.run(later())
    assert len(caught) == 1 and isinstance(caught[0], HonestyError)
    assert ENDED in str(caught[0])


def test_after_its_run_a_register_is_output_again_and_again() -> None:
    """Between runs and after a later run, a kept register is the host's output: read,
    computed with, pickled; and a program's return value reads as before."""
    m = Machine()
    kept = _kept(m)
    assert kept.tolist() == [3, 1, 2, 0] and int(kept[1]) == 1
    assert (kept + 1).tolist() == [4, 2, 3, 1] and np.asarray(kept).sum() == 6

    def later() -> Program[None]:
        yield Step(m.processors(1))

    m.run(later())
    assert kept.tolist() == [3, 1, 2, 0] and repr(kept) == "Register([3, 1, 2, 0])"
    assert contents(kept).tolist() == [3, 1, 2, 0]


def test_values_carried_through_memory_to_the_next_run_work() -> None:
    """The fix the refusal names: write the values to memory before the run ends."""
    m = Machine()
    a, keep = m.array("a", values=np.array([3, 1, 2, 0])), m.array("keep", size=N)

    def first() -> Program[None]:
        pid = m.processors(N)
        x, = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(keep, iota(N), x + 1)])

    def second() -> Program[Register]:
        pid = m.processors(N)
        y, = yield Step(pid, reads=[Read(keep, iota(N))])
        return y * 2

    m.run(first())
    assert m.run(second()).tolist() == [8, 4, 6, 2]


def test_a_batch_keeps_its_registers_across_the_passes_of_one_run() -> None:
    """A batched machine's later passes belong to the same run: a register made before a
    loop test that splits the instances is used after it."""
    m = Machine("erew", batch=2)
    a = m.array("a", values=np.array([[1, 2], [3, 4]]))
    flag = m.array("flag", values=np.array([[1], [0]]))
    out = m.array("out", values=np.zeros((2, 2), dtype=np.int64))

    def program() -> Program[None]:
        pid = m.processors(2)
        x, = yield Step(pid, reads=[Read(a, iota(2))])
        yield Until(flag, 0, m.processors(1))
        yield Step(pid, writes=[Write(out, iota(2), x * 10)])

    m.run(program())
    assert out.to_numpy().tolist() == [[10, 20], [30, 40]]
