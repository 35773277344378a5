"""Arrays of a run and ``m.scope()``: a second run names ``m.free`` and scopes, a scope frees
what was made inside it, nested scopes and arrays freed already."""

from __future__ import annotations

import pytest

from pram import InputError, Machine, Read, Step, Write, iota
from pram.step import Program


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
