"""Comparator networks on keys alone, written to be oblivious: their runs are circuits (H.7.6).

Every comparator of a level runs at once, and what each processor reads and writes depends only
on the sizes, never on the keys, so :class:`pram.circuit.Recorder` turns a run into the network's
circuit. Two kinds of keys:

``word``
    A key is one cell. One processor per comparator reads both keys and writes back their
    minimum and maximum (2 steps per level); recorded, each comparator is one ``comparator``
    gate, so the circuit of :func:`sort` has Knuth's counts (bitonic: ``n k (k+1) / 4``
    comparators, odd-even: ``(k^2 - k + 4) 2^(k-2) - 1``, both ``k (k+1) / 2`` deep for
    ``n = 2^k``).
``bits``
    A key is d cells of one bit, **least significant first** (token ``t``'s bit ``b`` in cell
    ``t d + b``). Each comparator is Lemma H.32's network (:func:`bit_comparators`): a team of
    d processors, one per bit position, finds ``x < y`` with a parallel prefix over the bits
    (a binary tree of O(d) gates and O(log d) levels, not a serial scan), spreads it back over
    the team, and each member writes the bits of the minimum and the maximum. Recorded, one
    comparator is about ``9 d`` AND/XOR/INV gates, ``2 ceil(log2 d) + 4`` deep.

Every step uses the whole team (or pool), with ``where`` masks for the members that act: the
masks come from sizes alone, so they are the same on every input.

:func:`sort` takes any network of :data:`pram.algorithms.comparator_networks.SORTERS` for any
number of keys (Batcher's bitonic and odd-even, his merge exchange, the best known for
n <= 16); :func:`merge` is Batcher's two, on a power of two.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> a = m.array("a", values=np.array([3, 1, 2, 0]))
>>> m.run(sort(m, a, "bitonic")); a.to_numpy().tolist()
[0, 1, 2, 3]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pram import Array, InputError, Machine, Program, Read, Step, Words, Write, iota
from pram.algorithms import comparator_networks
from pram.algorithms.sorting import (
    NETWORKS,
    Level,
    bitonic_merge_levels,
    odd_even_merge_levels,
)

#: The ways a key is held: one word, or d bits.
KEY_KINDS = ("word", "bits")


def levels(kind: str, network: str, n: int) -> list[Level]:
    """The levels of ``network`` sorting (``kind="sort"``: any network of
    :data:`~pram.algorithms.comparator_networks.SORTERS`, any n) or merging two halves of
    ``n`` keys (Batcher's two, n a power of two)."""
    if kind == "sort":
        return comparator_networks.levels(network, n)
    if network not in NETWORKS:
        raise InputError(
            f"network must be one of {', '.join(map(repr, NETWORKS))} to merge (got "
            f"{network!r})"
        )
    merge = bitonic_merge_levels if network == "bitonic" else odd_even_merge_levels
    return merge(n)


def sort(m: Machine, a: Array, network: str, *, d: int = 0) -> Program[None]:
    """Sort the keys of ``a`` in place with ``network`` (words, or d-bit keys when ``d > 0``)."""
    n = a.size // d if d else a.size
    yield from run_levels(m, a, levels("sort", network, n), d=d)


def merge(m: Machine, a: Array, network: str, *, d: int = 0) -> Program[None]:
    """Merge the two sorted halves of ``a`` in place (the last stage of ``network``)."""
    n = a.size // d if d else a.size
    yield from run_levels(m, a, levels("merge", network, n), d=d)


def run_levels(m: Machine, a: Array, network: list[Level], *, d: int = 0) -> Program[None]:
    """Every level of ``network`` on the keys of ``a``: word comparators, or bit ones (d > 0)."""
    widest = 0  # the pool: as many processors as the widest level needs (sizes only)
    for level in network:
        widest = max(widest, level.count)
    if d:
        pool = m.processors(widest * d)
        scratch = m.array(f"{a.name} comparator scratch", size=2 * widest * d)
        for level in network:
            lo, hi = level.pairs(iota(level.count))
            yield from bit_comparators(a, scratch, pool[: level.count * d], lo, hi, d)
        return
    pool = m.processors(widest)
    for level in network:
        lo, hi = level.pairs(iota(level.count))
        yield from word_comparators(a, pool[: level.count], lo, hi)


def word_comparators(a: Array, pid: Words, lo: Words, hi: Words) -> Program[None]:
    """Processor ``pid[r]`` puts the minimum of keys ``a[lo[r]]``, ``a[hi[r]]`` first."""
    x, y = yield Step(pid, reads=(Read(a, lo), Read(a, hi)))
    yield Step(pid, writes=(Write(a, lo, np.minimum(x, y)), Write(a, hi, np.maximum(x, y))))


def bit_comparators(
    a: Array, scratch: Array, pid: Words, lo: Words, hi: Words, d: int
) -> Program[None]:
    """Lemma H.32 on d-bit keys: team ``r`` (``pid[r d : (r+1) d]``) orders keys lo[r], hi[r].

    Member ``k`` of a team holds bit ``k`` (weight ``2^k``). It reads both bits and forms
    ``diff = x ^ y``, ``less = diff & y`` (x < y at this bit) and ``same = diff ^ 1``. A binary
    tree combines adjacent blocks, the more significant one deciding unless equal:
    ``less = less_hi ^ (same_hi & less_lo)``, ``same = same_hi & same_lo`` (the XOR is an OR:
    both terms cannot hold). Rank 0 ends with ``x < y`` for the whole key; doubling spreads it
    to the team, and member k writes ``y ^ (s & diff)`` (the minimum's bit) and ``x ^ (s &
    diff)`` (the maximum's). 2 steps per tree round and per spreading round: ``4 ceil(log2 d)
    + 2`` steps per level.
    """
    c = len(lo)
    rank = np.tile(iota(d), c)
    team = np.repeat(iota(c), d)
    member = iota(c * d)
    cell = 2 * member
    x, y = yield Step(
        pid, reads=(Read(a, lo[team] * d + rank), Read(a, hi[team] * d + rank))
    )
    diff = x ^ y
    less = diff & y
    same = diff ^ 1
    span = 1
    while span < d:  # the prefix tree: rank q 2^(r+1) + 2^r hands its block to rank q 2^(r+1)
        send = rank % (2 * span) == span
        yield Step(
            pid,
            writes=(
                Write(scratch, cell, less, where=send),
                Write(scratch, cell + 1, same, where=send),
            ),
        )
        get = (rank % (2 * span) == 0) & (rank + span < d)
        less_hi, same_hi = yield Step(
            pid,
            reads=(
                Read(scratch, cell + 2 * span, where=get),
                Read(scratch, cell + 2 * span + 1, where=get),
            ),
        )
        less = np.where(get, less_hi ^ (same_hi & less), less)
        same = np.where(get, same_hi & same, same)
        span *= 2
    smaller = less  # rank 0's entry is x < y; the others' are spread over next
    span = 1
    while span < d:  # doubling: ranks below 2^r tell the rank 2^r above them
        send = (rank < span) & (rank + span < d)
        yield Step(pid, writes=(Write(scratch, cell + 2 * span, smaller, where=send),))
        get = (rank >= span) & (rank < 2 * span)
        (told,) = yield Step(pid, reads=(Read(scratch, cell, where=get),))
        smaller = np.where(get, told, smaller)
        span *= 2
    change = smaller & diff
    yield Step(
        pid,
        writes=(
            Write(a, lo[team] * d + rank, y ^ change),
            Write(a, hi[team] * d + rank, x ^ change),
        ),
    )


def store_bits(m: Machine, name: str, tokens: Any, d: int) -> Array:
    """An array holding ``tokens`` as d bit cells each, least significant first (host input)."""
    values = np.asarray(tokens, dtype=np.int64).reshape(-1, 1)
    bits = (values >> iota(d).reshape(1, -1)) & 1
    return m.array(name, values=bits.reshape(-1))


def load_bits(array: Array, d: int) -> Words:
    """The d-bit tokens held in ``array``, least significant bit first (host output)."""
    bits = array.to_numpy().reshape(-1, d)
    tokens: Words = np.zeros(len(bits), dtype=np.int64)
    for k in range(d):  # host output, bit column by bit column
        tokens |= bits[:, k] << k
    return tokens


__all__ = [
    "KEY_KINDS",
    "bit_comparators",
    "levels",
    "load_bits",
    "merge",
    "run_levels",
    "sort",
    "store_bits",
    "word_comparators",
]
