"""Three prefix circuits as PRAM programs: Brent-Kung, Kogge-Stone and Sklansky.

Each replaces ``a[0 : n]`` by its inclusive prefix sums, in place, with additions whose
operands always come in order (the earlier block's sum first), so the circuit the recorder
makes of a run (:mod:`pram.circuits.circuit`) is the textbook prefix circuit and passes the
interval-monoid check of every associative operator (:mod:`pram.circuits.monoid`).

``brent-kung`` (Brent and Kung, IEEE Trans. Computers C-31, 1982)
    The project's :func:`~pram.algorithms.primitives.prefix_sums` (EREW): an up-sweep of
    sums of aligned blocks, then a down-sweep; for ``n = 2^k`` a circuit of
    ``2n - 2 - log2 n`` additions and depth ``2 log2 n - 2`` (n >= 4; 1 for n = 2).
``kogge-stone`` (Kogge and Stone, IEEE Trans. Computers C-22, 1973)
    Recursive doubling: in round ``h = 1, 2, 4, ...`` every position ``i >= h`` adds the
    value ``h`` to its left. Each processor keeps its own value in a register (one read of
    its cell first), and in a round reads only the cell ``h`` to its left, which no other
    processor reads, so the program is EREW: ``1 + 2 ceil(log2 n)`` steps, and for
    ``n = 2^k`` a circuit of ``n log2 n - n + 1`` additions and depth ``log2 n``.
``sklansky`` (Sklansky, IRE Trans. Electronic Computers EC-9, 1960)
    Divide and conquer: in round ``h``, every position whose bit ``h`` is set adds the sum
    ending just before its block of ``h`` (the last cell of the block to its left). That
    cell is read by up to ``h`` processors at once (the circuit's fan-out), so the program is
    CREW: ``1 + 2 ceil(log2 n)`` steps, and for ``n = 2^k`` a circuit of ``(n/2) log2 n``
    additions and depth ``log2 n``.

>>> import numpy as np
>>> from pram import Machine
>>> m = Machine("erew")
>>> a = m.array("a", values=np.array([1, 2, 3, 4, 5]))
>>> m.run(prefix_sums(m, a, "kogge-stone")); a.to_numpy().tolist(), m.cost.time
([1, 3, 6, 10, 15], 7)
"""

from __future__ import annotations

from pram import Array, InputError, Machine, Program, Read, Step, Write, iota
from pram.algorithms import primitives

#: The prefix circuits, the project's Brent-Kung first (the default).
PREFIX_NETWORKS = ("brent-kung", "kogge-stone", "sklansky")
#: The weakest model each runs on: Sklansky's fan-out is a concurrent read.
MODELS = {"brent-kung": "erew", "kogge-stone": "erew", "sklansky": "crew"}


def prefix_sums(m: Machine, a: Array, network: str = "brent-kung") -> Program[None]:
    """Replace every cell of ``a`` by the sum of the cells up to it, with ``network``."""
    if network not in PREFIX_NETWORKS:
        raise InputError(
            f"network must be one of {', '.join(map(repr, PREFIX_NETWORKS))} (got {network!r})"
        )
    if network == "brent-kung":
        yield from primitives.prefix_sums(m, a, a.size)
        return
    n = a.size
    if n < 2:
        return
    pid = m.processors(n)
    cell = iota(n)
    (value,) = yield Step(pid, reads=(Read(a, cell),))  # each processor's own value
    h = 1
    while h < n:
        if network == "kogge-stone":
            acts = cell >= h
            source = cell - h
        else:  # sklansky: bit h set; the source is the last cell of the block to the left
            acts = (cell & h) != 0
            source = (cell // h) * h - 1
        (left,) = yield Step(pid[acts], reads=(Read(a, source[acts]),))
        total = left + value[acts]
        yield Step(pid[acts], writes=(Write(a, cell[acts], total),))
        value[acts] = total
        h *= 2


__all__ = ["MODELS", "PREFIX_NETWORKS", "prefix_sums"]
