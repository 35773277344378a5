"""Registers: honest idioms (selections, masked assignment, lookups in constant tables) run as
numpy does; tables of registers, plain arrays in a step of processors chosen by data and
chained assignment into a selection are refused with the fix."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pram import HonestyError, Machine, Read, Step, Write, hold, iota
from pram.step import Program
from tests.helpers import D16, N16, read_all

N = 8


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


def _computed(compute: Callable[[Any], Any]) -> np.ndarray:
    """``compute`` of the register of DATA, one cell per processor read in one step, written
    as floats in the next (EREW): the cells written."""
    m = Machine("erew")
    a = m.array("a", values=DATA)
    out = m.array("out", size=N, dtype=float)

    def program():  # type: ignore[no-untyped-def]
        pid = m.processors(N)
        (x,) = yield Step(pid, reads=[Read(a, iota(N))])
        yield Step(pid, writes=[Write(out, iota(N), compute(x).astype(np.float64))])

    m.run(program())
    return out.to_numpy()


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_honest_idioms_against_constant_tables_run_as_numpy_does(idiom: str) -> None:
    compute = IDIOMS[idiom]
    expected = compute(DATA.copy())
    np.testing.assert_allclose(_computed(compute), np.asarray(expected, dtype=np.float64))


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


@pytest.mark.parametrize("k", [2, 4, 7])
def test_a_plain_array_in_a_step_of_chosen_processors_is_refused_whatever_its_length(
    k: int,
) -> None:
    """A length accepted only when it equals the count would tell the count."""
    m = Machine()
    a, out = m.array("a", values=D16), m.array("out", size=N16)

    def program() -> Any:
        pid, x = yield from read_all(m, a, N16)
        who = hold(pid, pid)[x > 500]
        yield Step(who, writes=[Write(out, np.arange(k), 1)])
    with pytest.raises(HonestyError, match="chosen by data"):
        m.run(program())


def _run(body: Callable[[Any, Any], Any]) -> np.ndarray:
    """Read ``D16`` and write ``body(pid, x)`` for each processor; the output array."""
    m = Machine()
    a, out = m.array("a", values=D16), m.array("out", values=np.zeros(N16, dtype=np.int64))

    def program() -> Any:
        pid, x = yield from read_all(m, a, N16)
        yield from body(out, (pid, x))
    m.run(program())
    return out.to_numpy()


def test_hold_mask_actors_with_masks_computed_apart() -> None:
    """The README's pattern: processors, index and value each selected by ``x > 500``."""
    def body(out: Any, px: Any) -> Any:
        pid, x = px
        yield Step(hold(pid, pid)[x > 500],
                   writes=[Write(out, hold(pid, iota(N16))[x > 500], (x - 1)[x > 500])])
    assert _run(body).tolist() == np.where(D16 > 500, D16 - 1, 0).tolist()


def test_another_selection_takes_part_only_where_it_holds() -> None:
    """A register selected by x > 600 in a step of x > 500: only its holders write."""
    def body(out: Any, px: Any) -> Any:
        pid, x = px
        yield Step(hold(pid, pid)[x > 500],
                   writes=[Write(out, hold(pid, iota(N16))[x > 600], np.minimum(x, 700)[x > 500])])
    assert _run(body).tolist() == np.where(D16 > 600, np.minimum(D16, 700), 0).tolist()


def test_masked_assignment_between_registers_of_the_same_processors() -> None:
    """``y[x > 500] = z[x > 500]`` with masks computed apart."""
    def body(out: Any, px: Any) -> Any:
        pid, x = px
        y, z = x.copy(), x * 10
        y[x > 500] = z[x > 500]
        yield Step(pid, writes=[Write(out, iota(N16), y)])
    assert _run(body).tolist() == np.where(D16 > 500, D16 * 10, D16).tolist()


def test_a_constant_table_lookup_is_np_choose() -> None:
    """np.choose(x % 10, table): one lookup per processor in a table of constants."""
    table = np.arange(10) * 11

    def body(out: Any, px: Any) -> Any:
        pid, x = px
        yield Step(pid, writes=[Write(out, iota(N16), np.choose(x % 10, table))])
    assert _run(body).tolist() == table[D16 % 10].tolist()


def test_chained_assignment_into_a_register_is_refused_with_the_fix() -> None:
    m = Machine()
    a = m.array("a", values=[0, 1, 2, 3])

    def program(m: Machine) -> Program[None]:
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        x[1:][x[1:] > 1] = 0

    with pytest.raises(HonestyError) as error:
        m.run(program(m))
    assert str(error.value) == (
        "assigning into a selection of a register (chained, as in x[1:][mask] = 0) changes a "
        "temporary copy, which is then lost; assign with one key (x[mask] = 0, the mask over "
        "all of x's processors), or name the selection first (y = x[1:]; y[mask] = 0) and use y"
    )


def test_named_selections_and_one_key_assignments_still_work() -> None:
    m = Machine()
    a = m.array("a", values=[0, 1, 2, 3])
    b = m.array("b", size=3)

    def program(m: Machine) -> Program[None]:
        pid = m.processors(4)
        x, = yield Step(pid, reads=[Read(a, iota(4))])
        y = x[1:]
        y[y > 1] = 0
        x[x > 2] = 9
        yield Step(pid, writes=[Write(a, iota(4), x)])
        yield Step(pid[1:], writes=[Write(b, iota(3), y)])

    m.run(program(m))
    assert a.to_numpy().tolist() == [0, 1, 2, 9]
    assert b.to_numpy().tolist() == [1, 0, 0]


class _LoudErrstate:
    """An errstate that raises on every floating-point report, whatever it is asked."""

    def __init__(self, **kwargs: Any) -> None:
        self.saved: dict[str, str] = {}

    def __enter__(self) -> None:
        self.saved = np.seterr(all="raise")

    def __exit__(self, *exc: object) -> None:
        np.seterr(**self.saved)


@pytest.mark.parametrize("name", ["take", "where", "errstate"])
def test_rebinding_numpy_mid_run_hands_the_machine_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numpy's callables are the machine's from when pram was imported: a program that
    rebinds np.take, np.where or np.errstate got the raw values the guard passed them (the
    registers' values as plain arrays; or the silenced reports back, as a data-dependent
    error); now the machine calls what it bound, the spy sees no plain array, and the
    answers are numpy's."""
    seen: list[Any] = []
    real = getattr(np, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.extend(arg for arg in args if type(arg) is np.ndarray)
        return real(*args, **kwargs)

    def compute(x: Any) -> Any:
        with np.errstate(all="ignore"):  # the host's plain answer reports nothing either
            ratio = (x - 512) / (x - 512)  # 0/0 for one processor
        kept = np.zeros_like(x)
        np.add(x, 1, out=kept, where=x > 500)  # where= is np.where(mask, ...) in the guard
        return np.choose(x % 3, [10, 20, 30]) + kept + np.nan_to_num(ratio)

    def watched(x: Any) -> Any:  # numpy rebound while the step's values are computed
        monkeypatch.setattr(np, name, _LoudErrstate if name == "errstate" else spy)
        value = compute(x)
        monkeypatch.undo()
        return value

    got = _computed(watched)
    assert seen == []
    assert got.tolist() == compute(DATA.copy()).astype(float).tolist()
