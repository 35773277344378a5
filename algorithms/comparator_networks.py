"""Sorting networks for every n, as lists of comparators in levels: Batcher's four and the best.

A network here is a list of *levels*, each a tuple of disjoint comparators ``(i, j)``,
``i < j``, that leave the smaller key on wire ``i``; :func:`levels` turns it into the
:class:`~pram.algorithms.sorting.Level` objects every program of :mod:`~pram.algorithms.networks`
and :mod:`~pram.algorithms.sorting` runs, one processor per comparator and one level after
another (EREW: the comparators of a level touch disjoint cells). The networks (:data:`SORTERS`):

``bitonic``, ``odd-even``
    Batcher's (1968). For n a power of two these are exactly the levels of
    :func:`~pram.algorithms.sorting.sort_levels` (the same objects, so every count stays). For
    any other n, the network of the next power of two N with every comparator that touches a
    wire ``>= n`` left out: were wires n..N-1 to hold keys larger than all others, each such
    comparator would leave them where they are (its larger key is already on its higher wire,
    and both networks only ever put the smaller key on the lower wire), so dropping them
    changes nothing for the first n wires, and the result sorts every input of n keys.
``merge-exchange``
    Batcher's merge exchange, Knuth's Algorithm 5.2.2M, for any n: with ``t = ceil(log2 n)``,
    for ``p = 2^(t-1), ..., 1`` and ``q = 2^(t-1), ..., p`` (``r = 0, d = p`` first, then
    ``d = q - p, r = p``), one level of the comparators ``(i, i + d)`` with
    ``0 <= i < n - d`` and ``i & p == r``: ``t (t + 1) / 2`` levels (Knuth's count of passes),
    and Knuth's table of its comparators (5.3.4) for n = 1..16.
``best-known``
    The smallest network known for each n <= 16 (:mod:`~pram.algorithms.best_networks`, the
    published lists with their sources), each comparator in the earliest level after the
    levels of the comparators before it on its two wires.

The counts (comparators, levels, the circuit's depth) are what the machine and the circuit
recorder measure; this module only lists comparators. The record sort takes any of them as
``pram.algorithms.sorting.sort(m, values, levels=lambda n: levels(network, n))``.

>>> [len(level) for level in passes("merge-exchange", 5)]
[1, 2, 1, 2, 1, 2]
>>> sum(len(level) for level in passes("best-known", 9)), len(passes("best-known", 9))
(25, 7)
"""

from __future__ import annotations

import numpy as np

from pram import InputError, Words
from pram.algorithms.best_networks import BEST_KNOWN, Comparators
from pram.algorithms.sorting import NETWORKS, Level, sort_levels

#: The sorting networks for every n: Batcher's bitonic and odd-even merge sorts, his merge
#: exchange (Knuth's Algorithm M), and the best known networks for n <= 16.
SORTERS = (*NETWORKS, "merge-exchange", "best-known")
#: The largest n with a best known network stored.
BEST_KNOWN_MAX = len(BEST_KNOWN)  # n = 1 .. 16, every one


def check(network: str, n: object) -> int:
    """``n`` as an int after checking it suits ``network`` (an InputError naming the fix)."""
    if network not in SORTERS:
        raise InputError(
            f"network must be one of {', '.join(map(repr, SORTERS))} (got {network!r})"
        )
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise InputError(f"n must be a positive integer (got {n!r}); give n = 1 or more")
    if network == "best-known" and n > BEST_KNOWN_MAX:
        raise InputError(
            f"n = {n}: the best known networks are stored for n = 1..{BEST_KNOWN_MAX}; give n "
            f"= {BEST_KNOWN_MAX} or less, or another network (e.g. merge-exchange)"
        )
    return int(n)


def passes(network: str, n: int) -> list[Comparators]:
    """The levels of ``network`` on ``n`` keys, each a tuple of disjoint comparators."""
    n = check(network, n)
    if network == "merge-exchange":
        return _merge_exchange(n)
    if network == "best-known":
        return _layered(BEST_KNOWN[n], n)
    size = 1 << (n - 1).bit_length()
    found: list[Comparators] = []
    for level in sort_levels(network, size):  # type: ignore[arg-type]
        lo, hi = level.pairs(np.arange(level.count, dtype=np.int64))
        kept = tuple((int(a), int(b)) for a, b in zip(lo, hi, strict=True) if b < n)
        if kept:
            found.append(kept)
    return found


def levels(network: str, n: int) -> list[Level]:
    """The :class:`~pram.algorithms.sorting.Level` objects of ``network`` sorting ``n`` keys."""
    n = check(network, n)
    if network in NETWORKS and n & (n - 1) == 0:
        return sort_levels(network, n)
    return [_level(level) for level in passes(network, n)]


def _level(comparators: Comparators) -> Level:
    lo = np.array([a for a, _ in comparators], dtype=np.int64)
    hi = np.array([b for _, b in comparators], dtype=np.int64)

    def pairs(r: Words) -> tuple[Words, Words]:
        return lo[r], hi[r]

    return Level(len(comparators), pairs)


def _merge_exchange(n: int) -> list[Comparators]:
    """Knuth's Algorithm 5.2.2M, one level per pass (M3), in the algorithm's order."""
    if n < 2:
        return []
    t = (n - 1).bit_length()
    found: list[Comparators] = []
    p = 1 << (t - 1)
    while p > 0:  # M2
        q, r, d = 1 << (t - 1), 0, p
        while True:  # M3: every i < n - d with i & p == r, all at once
            found.append(tuple((i, i + d) for i in range(n - d) if i & p == r))
            if q == p:  # M4
                break
            d, q, r = q - p, q // 2, p
        p //= 2  # M5
    return found


def _layered(comparators: Comparators, n: int) -> list[Comparators]:
    """Each comparator in the level after the last one using either of its wires."""
    depth = [0] * n
    found: list[list[tuple[int, int]]] = []
    for a, b in comparators:
        level = max(depth[a], depth[b])
        depth[a] = depth[b] = level + 1
        if level == len(found):
            found.append([])
        found[level].append((a, b))
    return [tuple(level) for level in found]


__all__ = ["BEST_KNOWN_MAX", "SORTERS", "check", "levels", "passes"]
