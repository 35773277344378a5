"""Cheats found by a third outside red team (which read only the README, the tutorial and the
public API), each now refused at run time or flagged by ``pram lint``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import pram
from pram import HonestyError, Machine, Read, Step, Until, Write, hold, iota
from pram.lint import findings

N = 8


def test_the_model_cannot_change_while_a_program_runs() -> None:
    """An EREW machine switched to CRCW-sum for one step would sum in one step, unflagged."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    c = m.array("c", values=np.zeros(1, dtype=np.int64))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        m.model = pram.models.model("crcw-sum")
        yield Step(pid, writes=[Write(c, 0, x)])

    with pytest.raises(HonestyError, match=r"m\.model = \.\.\. while a program runs"):
        m.run(program())
    assert m.model.name == "EREW"
    assert c.to_numpy().tolist() == [0]


@pytest.mark.parametrize("name, value", [("mode", "collect"), ("strict", False),
                                         ("distinct_processors", False), ("fast_path", False),
                                         ("observer", None)])
def test_no_rule_of_the_machine_changes_mid_run(name: str, value: object) -> None:
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        yield Step(pid, reads=[Read(a, iota(N))])
        setattr(m, name, value)

    with pytest.raises(HonestyError, match=f"m.{name} = "):
        m.run(program())
    setattr(m, name, value)  # before or after a run: an ordinary setting


def _traced(look):  # type: ignore[no-untyped-def]
    m = Machine("erew", trace=True)
    a = m.array("a", values=np.array([512, 130, 777, 305, 999, 241, 618, 402]))
    o = m.array("o", values=np.zeros(N, dtype=np.int64))
    trace = m.trace

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        who = hold(pid, pid)[x > 500]
        yield Step(who, writes=[Write(o, hold(pid, iota(N))[x > 500], 1)])
        look(trace)

    m.run(program())
    return trace


def test_the_trace_counts_no_cells_mid_run() -> None:
    """``cells`` counts the accesses, so under processors chosen by data it counts them."""
    with pytest.raises(HonestyError, match=r"reading the trace \(cells\)"):
        _traced(lambda t: t.cells)
    after = _traced(lambda t: None)  # after the run it is an ordinary count
    assert after.cells == after.as_dict()["cells"] > 0


def test_the_trace_cannot_be_unsealed() -> None:
    def unseal(t: pram.Trace) -> None:
        t.sealed = False  # type: ignore[misc]

    with pytest.raises(AttributeError):
        _traced(unseal)


def test_a_loop_test_gives_its_bit_only_as_a_step() -> None:
    """The bit of an Until is the machine's reply to the step; no method of the step turns a
    register into a bool without one."""
    assert not hasattr(Until, "answer")
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        with pytest.raises(HonestyError):
            bool(x > 4)
        return (yield Until(a, 0, pid[:1], value=0))

    assert m.run(program()) is True
    assert m.cost.loop_tests == 1


def test_lint_flags_a_fork(tmp_path: Path) -> None:
    """A child of os.fork mid-run can end the run there and send its registers back."""
    source = "import os\nfrom os import fork\n\ndef p():\n    c = os.fork()\n    yield c\n"
    found = findings(source, "p.py")
    assert "p.py:2: from os import fork" in " ".join(found) or any(":2:" in f for f in found)
    assert any(":5:" in f and "fork" in f for f in found)


# ---- honest idioms the red team found refused, now taken ------------------------------------

DATA = np.array([512, 130, 777, 305, 999, 241, 618, 402])
IDIOMS = {
    "np.astype(x, np.float64)": lambda x: np.astype(x, np.float64) if hasattr(np, "astype")
    else x.astype(np.float64),
    "np.astype(x, 'float64')": lambda x: np.astype(x, "float64") if hasattr(np, "astype")
    else x.astype("float64"),
    "np.choose(x % 3, [10, 20, 30])": lambda x: np.choose(x % 3, [10, 20, 30]),
    "np.interp(x, [0, 1000], [0, 100])": lambda x: np.interp(x, [0, 1000], [0, 100]),
    "np.searchsorted(table, x)": lambda x: np.searchsorted(np.array([100, 300, 600, 900]), x),
    "np.searchsorted(table, x, side='right')": lambda x: np.searchsorted(
        np.array([130, 305, 618]), x, side="right"),
    "np.angle(x + 1j)": lambda x: np.angle(x + 1j),
}


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_honest_idioms_against_constant_tables_run_as_numpy_does(idiom: str) -> None:
    compute = IDIOMS[idiom]
    expected = compute(DATA.copy())
    m = Machine("erew")
    a = m.array("a", values=DATA)
    out = m.array("out", size=N, dtype=float)

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(out, iota(N), compute(x).astype(np.float64))])

    m.run(program())
    np.testing.assert_allclose(out.to_numpy(), np.asarray(expected, dtype=np.float64))


@pytest.mark.parametrize("cheat", [
    lambda x: np.searchsorted(x, x),                    # a table of other processors' values
    lambda x: np.interp(x, x, x),
    lambda x: np.choose(x % 2, [x, x]),                 # registers in the table
    lambda x: np.interp(x, [0, 1000], [x, x]),
])
def test_the_tables_must_be_constants(cheat: Callable[[Any], Any]) -> None:
    m = Machine("erew")
    a = m.array("a", values=DATA)

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        cheat(x)

    with pytest.raises(HonestyError):
        m.run(program())


@pytest.mark.parametrize("attribute, value", [("size", 100), ("shape", (100,)), ("name", "b"),
                                              ("freed", True)])
def test_an_array_cannot_be_resized_renamed_or_marked_freed(attribute: str, value: Any) -> None:
    """An array resized mid-run would move its addresses under the range and conflict checks
    (a size of 100 passes index 50 to the cells' own indexing); renamed or marked freed, it
    would confuse the machine's own bookkeeping. All four are read-only, before and during a
    run."""
    m = Machine("erew")
    a = m.array("a", values=np.arange(N))
    with pytest.raises(AttributeError):
        setattr(a, attribute, value)

    def program():  # type: ignore[no-untyped-def]
        setattr(a, attribute, value)
        yield Step(m.processors(N), reads=[Read(a, iota(N))])

    with pytest.raises(AttributeError):
        m.run(program())
    assert (a.size, a.shape, a.name, a.freed) == (N, (N,), "a", False)
