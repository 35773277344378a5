"""Local work per phase: each phase's share of the register operations (``PhaseCost.local``,
``PhaseCost.max_local``), counted as the machine counts ``Cost.local``.

The operations done between two steps are charged with the step they lead to, so a phase
takes those before each of its steps (and every phase around it takes them too); the work
after the last step belongs to the ledger only. A batched run gives each instance the phases
of its single run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Machine, PhaseCost, Read, Step, Write, hold, iota, parallel, phase


def _ops(x: Any, k: int) -> Any:
    """``k`` elementwise operations on register ``x`` (each counted once by the machine)."""
    for _ in range(k):
        x = x + 1
    return x


def _inner(m: Machine, a: Any, pid: Any, x: Any, before: list[int], cells: Any = None) -> Any:
    for k in before:
        x = _ops(x, k)
        yield Step(pid, writes=[Write(a, iota(4) if cells is None else cells, x)])
    return x


def _program(m: Machine, a: Any, outer: list[int], inner: list[int], after: int) -> Any:
    pid = m.processors(4)
    (x,) = yield Step(pid, reads=[Read(a, iota(4))])  # no phase, no operation before it
    x = yield from phase("outer", _inner(m, a, pid, x, outer))
    x = yield from phase("outer", phase("inner", _inner(m, a, pid, x, inner)))
    return _ops(x, after)  # after the last step: the ledger's only


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=4),
    st.lists(st.integers(0, 5), min_size=1, max_size=4),
    st.integers(0, 3),
)
def test_a_phase_takes_the_operations_before_its_steps(
    outer: list[int], inner: list[int], after: int
) -> None:
    """Against the operations the program did, counted by hand (brute force)."""
    m = Machine()
    a = m.array("a", values=np.arange(4))
    m.run(_program(m, a, outer, inner, after))
    assert m.cost.local == sum(outer) + sum(inner) + after
    assert m.cost.max_local == max([*outer, *inner, after])
    nested = m.cost.phases["outer/inner"]
    assert (nested.local, nested.max_local) == (sum(inner), max(inner))
    share = m.cost.phases["outer"]
    assert (share.local, share.max_local) == (sum(outer) + sum(inner), max(outer + inner))
    assert (share.time, share.work) == (len(outer) + len(inner), 4 * (len(outer) + len(inner)))


def test_branches_side_by_side_share_the_step() -> None:
    """Branches in one global step did their work side by side: the step's count (the most
    of any branch) is charged to the phase of each branch taking the step."""

    def branch(m: Machine, k: int, n: int) -> Any:
        pid = m.processors(n)
        _ops(hold(pid, 0), k)
        yield Step(pid)

    m = Machine()
    m.run(parallel(phase("left", branch(m, 2, 3)), phase("right", branch(m, 5, 1))))
    assert m.cost.local == 1 + 5  # the right branch's hold and five additions: the most
    assert m.cost.phases["left"] == PhaseCost(time=1, work=3, max_processors=3, local=6,
                                              max_local=6, rounds=1, round_work=3)
    assert m.cost.phases["right"] == PhaseCost(time=1, work=1, max_processors=1, local=6,
                                               max_local=6, rounds=1, round_work=1)


def test_a_batch_gives_each_instance_its_single_phases() -> None:
    """A batched run's phases (local work included) equal each instance's single run."""

    def program(m: Machine, a: Any) -> Any:
        pid = m.processors(4)
        (x,) = yield Step(pid, reads=[Read(a, iota(4))])
        large = x > 2
        chosen = hold(pid, pid)[large]  # each writes its own cell (the ids are 0 to 3)
        y = yield from phase("chosen", _inner(m, a, chosen, x[large], [3, 1], chosen))
        yield from phase("all", _inner(m, a, pid, x, [2]))
        return y

    values = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [0, 0, 9, 0]])
    m = Machine("crew", batch=3)
    a = m.array("a", values=values)
    m.run(program(m, a))
    for i, cost in enumerate(m.costs):
        s = Machine("crew")
        single = s.array("a", values=values[i])
        s.run(program(s, single))
        assert cost.phases == s.cost.phases, f"phases of instance {i}"
        assert cost.phases["chosen"].local == s.cost.phases["chosen"].local > 0
