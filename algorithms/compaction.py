"""Compaction: pack the marked elements of an array, in order, by prefix sums (EREW).

Each marked element's place in the output is the number of marked elements up to it, which
is the inclusive prefix sum of the marks (Brent and Kung's balanced tree,
:func:`pram.algorithms.primitives.prefix_sums`); then every marked element writes itself to
its place, and the places are distinct. JáJá, "An Introduction to Parallel Algorithms" (1992),
section 2.1 (prefix sums by a balanced tree); Blelloch, "Prefix sums and their
applications" (1990).

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> compact(m, np.array([5, 6, 7, 8, 9]), np.array([1, 0, 0, 1, 1])).tolist(), m.violations
([5, 8, 9], [])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Array, InputError, Machine, Program, Read, Step, Words, Write, iota, phase, words
from pram.algorithms import primitives


def compact(m: Machine, values: Any, marks: Any) -> Words:
    """The entries of ``values`` whose ``marks`` entry is not 0, in their order (EREW).

    Time ``2 (K + D) + 4`` steps, with K and D the prefix sum's up- and down-sweep levels
    (about ``4 log2 n``): O(log n). Work ``4n`` plus the prefix sum's (``2 (2n - log2 n - 2)``
    for n a power of two): O(n).

    >>> m = Machine("erew")
    >>> compact(m, np.arange(4), np.zeros(4, dtype=np.int64)).tolist()
    []
    """
    array = words(values, "values")
    mark = words(marks, "marks")
    n = len(array)
    if n == 0 or len(mark) != n:
        raise InputError(
            f"values and marks must be two arrays of one length n >= 1 (got {n} values and "
            f"{len(mark)} marks); pass one mark per value")
    cells = m.array("compact/values", values=array)
    flags = m.array("compact/marks", values=mark)
    out = m.array("compact/out", values=np.zeros(n, dtype=np.int64))
    count = m.array("compact/count", size=1)
    m.run(phase("compact", pack(m, cells, flags, out, count, n)))
    return out.to_numpy()[: int(count.to_numpy()[0])]


def pack(
    m: Machine, values: Array, marks: Array, out: Array, count: Array, n: int
) -> Program[None]:
    """Write the marked ``values[:n]`` to ``out[0 .. k-1]`` in order and ``k`` to ``count[0]``.

    Step 1 reads the marks, step 2 writes 0/1 places; the prefix sums turn the places into
    each element's rank among the marked; step 3 reads each place and value; step 4 writes the
    marked ones (exclusive: the ranks are distinct) and the last processor writes the count.
    """
    place = m.array(f"{out.name}/place", size=n)
    pid = m.processors(n)
    own = iota(n)
    (mark,) = yield Step(pid, reads=(Read(marks, own),))
    marked = mark != 0
    yield Step(pid, writes=(Write(place, own, np.where(marked, 1, 0)),))
    yield from phase("prefix sums", primitives.prefix_sums(m, place, n))
    rank, value = yield Step(pid, reads=(Read(place, own), Read(values, own)))
    last = own == n - 1
    yield Step(pid, writes=(
        Write(out, np.where(marked, rank - 1, 0), value, where=marked),
        Write(count, 0, rank, where=last),
    ))
    m.free(place)


__all__ = ["compact", "pack"]
