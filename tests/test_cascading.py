"""Maximum by the doubly logarithmic tree and by accelerated cascading: numpy's max, CRCW
common clean, flagged under CREW, O(log log n) time, O(n log log n) and O(n) work."""

from __future__ import annotations

import doctest
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pram import Formula, Kind, Machine, Words, check
from pram.algorithms import cascading
from pram.algorithms.cascading import cascade_max, doubly_log_max, tree_levels

#: A maximum program: a machine and values in, ``[max]`` out.
Program = Callable[[Machine, Any], Words]
PROGRAMS: list[Program] = [doubly_log_max, cascade_max]


def test_the_module_examples_run() -> None:
    """The docstrings' examples give what they print."""
    assert doctest.testmod(cascading).failed == 0


@pytest.mark.parametrize("program", PROGRAMS)
@settings(max_examples=30, deadline=None)
@given(values=st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=300))
def test_the_maximum_is_numpys(program: Program, values: list[int]) -> None:
    """Both give np.max of the values, with no CRCW-common violation."""
    m = Machine("crcw-common")
    assert program(m, np.array(values)).tolist() == [int(np.max(values))]
    assert m.violations == []


@pytest.mark.parametrize("program", PROGRAMS)
def test_under_crew_the_shared_flags_are_flagged(program: Program) -> None:
    """Under CREW the many writers of one "not the max" flag are write/write violations."""
    m = Machine("crew")
    program(m, np.random.default_rng(0).integers(0, 1000, 512))
    assert m.violations and {v.kind for v in m.violations} == {Kind.WRITE_WRITE}


def test_time_is_doubly_logarithmic() -> None:
    """Time is 4 steps per level, at most 4 (ceil(log2 log2 n) + 1), measured from 2^4 to 2^16:
    12, 16, 16, 20 (each size squares: one level more)."""
    times = []
    for n in (2**4, 2**8, 2**12, 2**16):
        m = Machine("crcw-common")
        doubly_log_max(m, np.arange(n)[::-1].copy())
        assert m.cost.time == 4 * len(tree_levels(n))
        assert m.cost.time <= 4 * (math.ceil(math.log2(math.log2(n))) + 1)
        times.append(m.cost.time)
    assert times == [12, 16, 16, 20]


def test_cascading_makes_the_work_linear() -> None:
    """The tree's work / n grows with the levels (15.3 at 2^8 to 17.3 at 2^14); the
    cascade's stays near 5 (6.04 at 2^8, 5.19 at 2^14), at a few steps more time."""
    tree, cascade = [], []
    for n in (2**8, 2**10, 2**12, 2**14):
        values = np.random.default_rng(n).integers(0, 10**6, n)
        m = Machine("crcw-common")
        doubly_log_max(m, values)
        tree.append(m.cost.work / n)
        c = Machine("crcw-common")
        cascade_max(c, values)
        cascade.append(c.cost.work / n)
        assert c.cost.time <= m.cost.time + math.ceil(math.log2(math.log2(n))) + 1
    assert tree[-1] > tree[0] + 1.5
    assert max(cascade) < 6.5 and cascade[-1] <= cascade[0]


def test_the_bound_checks_hold_for_the_cascade() -> None:
    """Over n = 2^4..2^14, pram.check finds the cascade's time O(log log n) and work O(n)."""
    loglog = Formula("log2(log2(n))", lambda s: math.log2(math.log2(s["n"])))
    linear = Formula("n", lambda s: s["n"])
    times, works = [], []
    for n in (2**4, 2**6, 2**8, 2**10, 2**12, 2**14):
        m = Machine("crcw-common")
        cascade_max(m, np.arange(n))
        times.append(({"n": n}, m.cost.time))
        works.append(({"n": n}, m.cost.work))
    # A staircase in log log n over six sizes: the calibrated check may decline to decide,
    # but it must never call the bound exceeded.
    assert check("time", loglog, times).verdict in ("holds", "undetermined")
    assert check("work", linear, works).verdict in ("holds", "undetermined")
