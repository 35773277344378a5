"""Hypothesis strategies shared by the tests: random steps of random PRAM programs.

A drawn step is plain data (:class:`PortSpec` and :class:`StepSpec`), so a brute-force checker
can read it without going through the machine, and :func:`to_step` turns it into a real
:class:`pram.Step` once the arrays exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from pram import Array, Read, Step, Write

#: Values written in random steps: a narrow range, so CRCW-common writers often agree.
VALUES = st.integers(min_value=-3, max_value=3)


@dataclass(frozen=True)
class PortSpec:
    """One read or write port: which array, one cell per processor, an optional mask."""

    array: int
    index: tuple[int, ...]
    where: tuple[bool, ...] | None
    value: tuple[int, ...] | None  # None for a read


@dataclass(frozen=True)
class StepSpec:
    """One branch's step: its processors and ports."""

    processors: tuple[int, ...]
    reads: tuple[PortSpec, ...]
    writes: tuple[PortSpec, ...]


@dataclass(frozen=True)
class ProgramSpec:
    """Initial contents of the arrays and the steps of each parallel branch."""

    arrays: tuple[tuple[int, ...], ...]
    branches: tuple[tuple[StepSpec, ...], ...]
    phases: tuple[str, ...]  # one label per branch ("" for none)


def words(size: int, lo: int = -1000, hi: int = 1000) -> st.SearchStrategy[list[int]]:
    """Lists of ``size`` integers in ``[lo, hi]``."""
    return st.lists(st.integers(min_value=lo, max_value=hi), min_size=size, max_size=size)


@st.composite
def ports(draw: st.DrawFn, n: int, sizes: tuple[int, ...], write: bool) -> PortSpec:
    """A port of ``n`` processors into one of the arrays of ``sizes``.

    Often, when the array is large enough, the processors get distinct cells (a random
    arrangement of the cells congruent to a random slot modulo 4), so ports with different
    slots never meet and conflict-free steps are common too. Half the time the cells come
    in ascending order, as cells computed from ranks do (the machine's ascending fast path).
    """
    array = draw(st.integers(min_value=0, max_value=len(sizes) - 1))
    if sizes[array] >= 4 * n and draw(st.booleans()):
        slot = draw(st.integers(min_value=0, max_value=3))
        cells = draw(st.permutations(range(sizes[array] // 4)))[:n]
        index = tuple(4 * c + slot for c in cells)
    else:
        cell = st.integers(min_value=0, max_value=sizes[array] - 1)
        index = tuple(draw(st.lists(cell, min_size=n, max_size=n)))
    if draw(st.booleans()):
        index = tuple(sorted(index))
    masked = draw(st.booleans())
    where = tuple(draw(st.lists(st.booleans(), min_size=n, max_size=n))) if masked else None
    value = tuple(draw(st.lists(VALUES, min_size=n, max_size=n))) if write else None
    return PortSpec(array, index, where, value)


@st.composite
def programs(
    draw: st.DrawFn,
    *,
    min_processors: int = 0,
    max_processors: int = 8,
    max_cells: int = 6,
    max_branches: int = 3,
    max_steps: int = 3,
    max_ports: int = 3,
) -> ProgramSpec:
    """Random programs: a few branches of a few steps each over two small arrays.

    Each branch owns a disjoint range of processor ids (as :meth:`pram.Machine.processors`
    would hand out) and each step acts with a random subset of them, in random or ascending
    order.
    """
    sizes = tuple(draw(st.lists(st.integers(1, max_cells), min_size=2, max_size=2)))
    arrays = tuple(tuple(draw(words(size, -5, 5))) for size in sizes)
    branch_count = draw(st.integers(min_value=1, max_value=max_branches))
    branches = []
    for b in range(branch_count):
        pool = range(b * 1000, b * 1000 + max_processors)
        length = draw(st.integers(min_value=1, max_value=max_steps))
        steps = []
        for _ in range(length):
            n = draw(st.integers(min_value=min_processors, max_value=max_processors))
            pid = tuple(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True)))
            if draw(st.booleans()):
                pid = tuple(sorted(pid))
            reads = draw(st.lists(ports(n, sizes, False), max_size=max_ports))
            writes = draw(st.lists(ports(n, sizes, True), max_size=max_ports))
            steps.append(StepSpec(pid, tuple(reads), tuple(writes)))
        branches.append(tuple(steps))
    phases = tuple(draw(st.sampled_from(["", "left", "right/inner"])) for _ in range(branch_count))
    return ProgramSpec(arrays, tuple(branches), phases)


def to_step(spec: StepSpec, arrays: list[Array]) -> Step:
    """The machine step that ``spec`` describes."""

    def mask(where: tuple[bool, ...] | None) -> np.ndarray | None:
        return None if where is None else np.array(where, dtype=np.bool_)

    def cells(index: tuple[int, ...]) -> np.ndarray:
        return np.array(index, dtype=np.int64)

    return Step(
        np.array(spec.processors, dtype=np.int64),
        reads=tuple(Read(arrays[p.array], cells(p.index), mask(p.where)) for p in spec.reads),
        writes=tuple(
            Write(arrays[p.array], cells(p.index), cells(p.value or ()), mask(p.where))
            for p in spec.writes
        ),
    )


# ---- inputs of the catalogue of classic algorithms -------------------------------------------

#: Small values with many repeats, so ties (equal maxima, equal keys) are common.
SMALL = st.integers(min_value=-20, max_value=20)


@st.composite
def linked_lists(draw: st.DrawFn, max_size: int = 64) -> list[int]:
    """Successor indices of one list through n nodes in a random order (-1 for the tail)."""
    n = draw(st.integers(min_value=1, max_value=max_size))
    order = draw(st.permutations(range(n)))
    successors = [-1] * n
    for k in range(n - 1):
        successors[order[k]] = order[k + 1]
    return successors


def sorted_lists(min_size: int = 1, max_size: int = 40) -> st.SearchStrategy[list[int]]:
    """Sorted lists of small integers with repeats."""
    return st.lists(SMALL, min_size=min_size, max_size=max_size).map(sorted)


@st.composite
def square_pairs(draw: st.DrawFn, max_size: int = 6) -> tuple[list[list[int]], list[list[int]]]:
    """Two n x n matrices of small integers."""
    n = draw(st.integers(min_value=1, max_value=max_size))
    matrix = st.lists(st.lists(SMALL, min_size=n, max_size=n), min_size=n, max_size=n)
    return draw(matrix), draw(matrix)
