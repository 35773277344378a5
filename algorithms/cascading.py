"""Maximum in O(log log n) time by the doubly logarithmic tree, and with O(n) work by
accelerated cascading (CRCW common).

The doubly logarithmic tree (Valiant, 1975; Shiloach and Vishkin, 1981): groups of s values
find their maximum in O(1) time with s^2 processors, every pair comparing and the beaten
values receiving a "not the max" flag from all who beat them at once (all write 0: CRCW
common). Bottom-up, the group sizes square at every level, s = 2, 4, 16, 256, 65536, so
level k leaves n / 2^(2^(k+1) - 1) values and costs about 2n pairs: O(log log n) levels,
O(log log n) time, O(n log log n) work. Accelerated cascading (Cole and Vishkin, 1986) first
lets each processor take the maximum of a block of log log n values sequentially (O(log log n)
time, O(n) work), then runs the tree on the n / log log n block maxima: O(log log n) time and
O(n) work. JáJá, "An Introduction to Parallel Algorithms" (1992), section 2.6.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("crcw-common")
>>> doubly_log_max(m, np.array([3, 9, 2, 9, 4])).tolist(), m.violations
([9], [])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Array, InputError, Machine, Program, Read, Step, Words, Write, iota, phase, words
from pram.algorithms.acting import answer_of, log2_ceil


def _values(values: Any) -> Words:
    array = words(values, "values")
    if len(array) == 0:
        raise InputError("values must hold at least one value (got an empty array)")
    return array


def tree_levels(n: int) -> list[tuple[int, int]]:
    """``(values, group size)`` of every level of the doubly logarithmic tree over ``n``.

    The group size squares from 2 upwards, and the last level takes all that is left.
    """
    levels: list[tuple[int, int]] = []
    count, size = n, 2
    while count > 1:
        group = min(size, count)
        levels.append((count, group))
        count = -(-count // group)
        size *= size
    return levels


def doubly_log_max(m: Machine, values: Any) -> Words:
    """``[max(values)]`` by the doubly logarithmic tree (CRCW common).

    Time 4 steps per level of :func:`tree_levels`, ``4 (ceil(log2 log2 n) + 1)`` at most:
    O(log log n). Work ``2 c s + 2 c`` (or less) at a level of c values in groups of s, about
    ``4n`` per level: O(n log log n).

    >>> m = Machine("crcw-common")
    >>> doubly_log_max(m, np.arange(16)).tolist(), m.cost.time
    ([15], 12)
    """
    return answer_of(m, "doubly-log-max", _values(values), 1,
                     lambda cells, n, out: max_by_tree(m, cells, n, out))


def max_by_tree(m: Machine, values: Array, n: int, out: Array) -> Program[None]:
    """Write ``max(values[:n])`` to ``out[0]`` by the doubly logarithmic tree (CRCW common)."""
    family = out.name
    current = values
    levels = tree_levels(n)
    if not levels:  # one value: copy it
        pid = m.processors(1)
        (x,) = yield Step(pid, reads=(Read(values, 0),))
        yield Step(pid, writes=(Write(out, 0, x),))
        return
    for k, (count, size) in enumerate(levels):
        last = k == len(levels) - 1
        target = out if last else m.array(f"{family}/level {k + 1}", size=-(-count // size))
        yield from phase(f"level {k}", _group_max(m, current, count, size, target, family, k))
        if current is not values:
            m.free(current)
        current = target


def _group_max(
    m: Machine, values: Array, count: int, size: int, out: Array, family: str, k: int
) -> Program[None]:
    """``out[g] = max(values[g s : (g + 1) s])`` for every group g, in 4 steps (CRCW common).

    Processor ``(g, i, j)`` reads the group's i-th and j-th values (concurrent reads: each
    value is read by 2s processors); ``(g, i, i)`` sets i's flag; every ``(g, i, j)`` whose j
    beats i (larger, or equal and earlier) writes 0 to i's flag, all writers agreeing; the
    one survivor of each group reads its flag and writes the group's maximum.
    """
    groups = -(-count // size)
    flag = m.array(f"{family}/candidate {k}", size=count)
    triple = iota(groups * size * size)
    g, i, j = triple // (size * size), (triple // size) % size, triple % size
    inside = (g * size + i < count) & (g * size + j < count)  # the last group may be short
    g, i, j = g[inside], i[inside], j[inside]
    pid = m.processors(len(g))
    diagonal = i == j
    x, y = yield Step(
        pid,
        reads=(Read(values, g * size + i), Read(values, g * size + j)),
        writes=(Write(flag, g * size + i, 1, where=diagonal),),
    )
    beaten = (y > x) | ((y == x) & (j < i))
    yield Step(pid, writes=(Write(flag, g * size + i, 0, where=beaten),))
    lead = pid[diagonal]  # processor (g, i, i) speaks for value i of group g
    mine = x[diagonal]
    cell = (g * size + i)[diagonal]
    (alive,) = yield Step(lead, reads=(Read(flag, cell),))
    yield Step(lead, writes=(Write(out, cell // size, mine, where=alive == 1),))
    m.free(flag)


def cascade_block(n: int) -> int:
    """The block each processor reduces sequentially first: ``ceil(log2 ceil(log2 n))``, at
    least 1."""
    return max(1, log2_ceil(log2_ceil(n)))


def cascade_max(m: Machine, values: Any) -> Words:
    """``[max(values)]`` in O(log log n) time and O(n) work by accelerated cascading
    (CRCW common).

    Each of ``ceil(n / b)`` processors, ``b = cascade_block(n)``, reads its block one value per
    step and keeps the larger (b steps, n work), writes its block's maximum (1 step), and the
    doubly logarithmic tree takes the ``n / b`` maxima: time ``b + 1 + 4 levels``, work
    ``n + n / b`` plus the tree's ``O((n / b) log log n) = O(n)``.

    >>> m = Machine("crcw-common")
    >>> cascade_max(m, np.array([4, -2, 11, 7, 11, 0])).tolist()
    [11]
    """
    return answer_of(m, "cascade-max", _values(values), 1,
                     lambda cells, n, out: max_by_cascade(m, cells, n, out))


def max_by_cascade(m: Machine, values: Array, n: int, out: Array) -> Program[None]:
    """Write ``max(values[:n])`` to ``out[0]``: blocks sequentially, then the tree."""
    block = cascade_block(n)
    blocks = -(-n // block)
    maxima = m.array(f"{out.name}/blocks", size=blocks)
    pid = m.processors(blocks)
    first = iota(blocks) * block
    (best,) = yield Step(pid, reads=(Read(values, first),))
    for t in range(1, block):  # each processor scans its own block, one value per step
        inside = first + t < n
        (x,) = yield Step(pid[inside], reads=(Read(values, (first + t)[inside]),))
        best[inside] = np.maximum(best[inside], x)
    yield Step(pid, writes=(Write(maxima, iota(blocks), best),))
    yield from phase("tree", max_by_tree(m, maxima, blocks, out))
    m.free(maxima)


__all__ = [
    "cascade_block",
    "cascade_max",
    "doubly_log_max",
    "max_by_cascade",
    "max_by_tree",
    "tree_levels",
]
