"""Selection of the k-th smallest value by radix counting, with each count made work-optimal by
accelerated cascading (EREW).

The answer is decided one bit at a time, from the most significant: with the bits above b
fixed (the prefix P), the k-th smallest has bit b = 0 exactly when at least k + 1 values
have prefix P and bit b = 0. Each such count is a sum of n flags made by accelerated cascading
(JáJá, "An Introduction to Parallel Algorithms", 1992, section 2.6; Cole and Vishkin, 1986):
``n / log2 n`` processors each scan a block of ``log2 n`` values sequentially, then a balanced
tree adds the block counts; one processor decides the bit and the new prefix is broadcast by
doubling. So each of the d bits costs O(n) work and O(log n) time, and the whole selection
O(n d) work and O(d log n) time for d-bit values: O(n) work for words of a fixed width. (A
deterministic selection with O(n) work for any width, by medians of medians, is not written
here.)

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> int(select(m, np.array([9, -4, 7, 7, 0]), 2)), m.violations
(7, [])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import (
    Array,
    InputError,
    Machine,
    Program,
    Read,
    Step,
    Words,
    Write,
    hold,
    iota,
    phase,
    words,
)
from pram.algorithms import primitives
from pram.algorithms.acting import first_true, log2_ceil


def value_bits(values: Words) -> int:
    """The bits d that two's complement needs for every value (at least 1): a host-side look
    at the input, like the d of the MQAR tokens."""
    low, high = -1, 0
    for x in values.tolist():
        low, high = (x if x < low else low), (x if x > high else high)
    return max(high.bit_length(), (-low - 1).bit_length()) + 1


def select(m: Machine, values: Any, k: int, *, bits: int | None = None) -> int:
    """The ``k``-th smallest of ``values`` (0-based: ``sorted(values)[k]``), EREW.

    ``bits`` is the width d of the values in two's complement (every value in ``[-2^(d-1),
    2^(d-1))``); by default the width the values need. Time ``d (b + 3 ceil(log2 B) + 4) + 1``
    steps for blocks of ``b = ceil(log2 n)`` values and ``B = ceil(n / b) >= 2`` blocks
    (``d (b + 3) + 1`` for one block): O(d log n). Work about ``d (n + 5 B)``: O(n d).

    >>> m = Machine("erew")
    >>> select(m, np.arange(100)[::-1], 0), select(m, np.arange(100), 99)
    (0, 99)
    """
    array = words(values, "values")
    n = len(array)
    if n == 0:
        raise InputError("values must hold at least one value (got an empty array)")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 0 <= k < n:
        raise InputError(f"k must be a rank in 0..{n - 1} (got {k!r})")
    width = value_bits(array) if bits is None else bits
    if isinstance(width, bool) or not isinstance(width, int | np.integer) or not 1 <= width <= 62:
        raise InputError(f"bits must be a width in 1..62 (got {width!r})")
    outside = first_true((array < -(1 << (width - 1))) | (array >= 1 << (width - 1)))
    if outside is not None:
        raise InputError(f"values[{outside}] = {array[outside]} does not fit in {width} bits; "
                         f"raise bits to at least {value_bits(array)} or leave it out")
    number = len(m.arrays)
    cells = m.array(f"select {number}/values", values=array)
    out = m.array(f"select {number}/out", size=1)
    m.run(phase("select", select_rank(m, cells, n, int(k), int(width), out)))
    return int(out.to_numpy()[0])


def select_rank(m: Machine, values: Array, n: int, k: int, d: int, out: Array) -> Program[None]:
    """Write the ``k``-th smallest of the d-bit ``values[:n]`` to ``out[0]`` (EREW).

    Processor j owns block ``[j b, (j + 1) b)``; processor 0 also keeps the rank left to find
    and the prefix decided so far. Each bit is a phase: the scan (b steps, each processor
    reading one value of its block per step and counting the values with the prefix and a 0
    bit), the block counts written and added by a balanced tree, processor 0 reading the
    total and writing the new prefix, and the prefix broadcast to every block's cell.
    """
    family = out.name.rsplit("/", 1)[0]
    block = max(1, log2_ceil(n))
    blocks = -(-n // block)
    prefix = m.array(f"{family}/prefix", values=np.zeros(blocks, dtype=np.int64))
    counts = m.array(f"{family}/counts", size=blocks)
    pid = m.processors(blocks)
    j = iota(blocks)
    first = j * block
    offset = 1 << (d - 1)  # value + offset is a d-bit non-negative number
    chief = pid[:1]
    left = np.array([k], dtype=np.int64)  # processor 0's register: the rank still to find
    known: Any = None  # processor 0's register: the prefix decided so far
    for b in reversed(range(d)):  # d bits: a count from sizes, not from data
        counted: Any = None
        mask = ~((1 << (b + 1)) - 1)  # the bits above b
        p: Any = None
        for t in range(block):
            inside = first + t < n
            if t == 0:
                got_p, x = yield Step(pid, reads=(Read(prefix, j), Read(values, first)),
                                      phase=f"bit {b}")
                p = got_p
                counted = hold(pid, 0)
            else:
                (x,) = yield Step(pid[inside], reads=(Read(values, (first + t)[inside]),),
                                  phase=f"bit {b}")
            u = x + offset
            p_here = p if t == 0 else p[inside]
            hit = (((u & mask) == (p_here & mask)) & (((u >> b) & 1) == 0))
            if t == 0:
                counted = counted + np.where(hit, 1, 0)
            else:
                counted[inside] = counted[inside] + np.where(hit, 1, 0)
        yield Step(pid, writes=(Write(counts, j, counted),), phase=f"bit {b}")
        yield from phase(f"bit {b}", _tree_sum(pid, counts, blocks))
        (zeros,) = yield Step(chief, reads=(Read(counts, 0),), phase=f"bit {b}")
        mine = p[:1] if known is None else known
        low = left < zeros
        left = np.where(low, left, left - zeros)
        known = np.where(low, mine, mine | (1 << b))
        yield Step(chief, writes=(Write(prefix, 0, known),), phase=f"bit {b}")
        yield from phase(f"bit {b}", primitives.broadcast(m, prefix, blocks))
    yield Step(chief, writes=(Write(out, 0, known - offset),), phase="answer")
    m.free(prefix)
    m.free(counts)


def _tree_sum(pid: Words, array: Array, n: int) -> Program[None]:
    """Leave ``array[0] + ... + array[n-1]`` in ``array[0]`` (EREW): ``ceil(log2 n)`` rounds
    of 2 steps, ``n - 1`` additions."""
    h = 1
    while h < n:
        starts = iota(-(-n // (2 * h))) * 2 * h
        starts = starts[starts + h < n]
        who = pid[starts // (2 * h)]
        x, y = yield Step(who, reads=(Read(array, starts), Read(array, starts + h)))
        yield Step(who, writes=(Write(array, starts, x + y),))
        h *= 2


__all__ = ["select", "select_rank", "value_bits"]
