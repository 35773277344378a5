"""The traps of issue 21: chained assignment, scratch arrays on a second run, and the
documentation's section on reals (docs/explanation/machine.md) run as written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from pram import HonestyError, InputError, Machine, Read, Step, Write, iota
from pram.step import Program

#: The page that holds the section on reals (moved from the README into the documentation).
MACHINE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "explanation" / "machine.md"


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


def scratch_user(m: Machine, a: object) -> Program[None]:
    """Allocates a scratch array inside the run."""
    scratch = m.array("scratch", size=2)
    pid = m.processors(2)
    x, = yield Step(pid, reads=[Read(a, iota(2))])  # type: ignore[arg-type]
    yield Step(pid, writes=[Write(scratch, iota(2), x)])


def test_a_second_run_names_m_free_and_scopes() -> None:
    m = Machine()
    a = m.array("a", values=[1, 2])
    m.run(scratch_user(m, a))
    with pytest.raises(InputError) as error:
        m.run(scratch_user(m, a))
    assert "m.free(m.arrays['scratch'])" in str(error.value)
    assert "with m.scope():" in str(error.value)
    m.free(m.arrays["scratch"])
    m.run(scratch_user(m, a))


def test_a_scope_frees_the_arrays_made_inside_it_so_the_program_runs_again() -> None:
    m = Machine()
    a = m.array("a", values=[1, 2])
    for _ in range(3):
        with m.scope():
            m.run(scratch_user(m, a))
            assert m.arrays["scratch"].to_numpy().tolist() == [1, 2]
        assert set(m.arrays) == {"a"}
    assert m.cost.peak_cells == 4


def test_nested_scopes_and_arrays_freed_already() -> None:
    m = Machine()
    with m.scope():
        outer = m.array("outer", size=1)
        with m.scope():
            inner = m.array("inner", size=1)
            m.free(inner)
            m.array("inner", size=2)
        assert set(m.arrays) == {"outer"}
    assert outer.freed and not m.arrays


def test_the_section_on_reals_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    text = MACHINE_PAGE.read_text()
    section = text[text.index("## Real numbers, overflow"):]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    scope: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(MACHINE_PAGE), "exec"), scope)
    y, A, x = scope["y"], scope["A"], scope["x"]
    assert np.allclose(y.to_numpy(), A.to_numpy() @ x.to_numpy())  # type: ignore[attr-defined]
    assert capsys.readouterr().out.startswith(
        "CRCW-common forbids disagreeing writes: processors 0 and 1 write 1 and 2 to a[0]")
