"""The seam through which every algorithm stores, compares and moves tokens.

A token is a key or a query. With :class:`WordKeys` it is one machine word and a comparison is
one read of two cells; with bit keys (a later module) it is d cells and a comparison is itself
a PRAM sub-program. Algorithms only ever call the methods of :class:`Keys`, so swapping the
representation changes their cost, never their answers. Tokens are addressed by their number
(token ``i`` of an array), never by cell: the representation maps token numbers to cells.

:meth:`Keys.compare_exchange` is the comparator of the sorting networks: it compares two tokens
of one array, lets the caller decide from the outcome (and from word cells it asked to read
alongside, such as the records' indices) whether to exchange them, and then writes both tokens
back, exchanged or not, together with the caller's word writes. Writing unconditionally keeps
the counted work independent of the data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeAlias

import numpy as np

from pram import Array, Flags, Machine, Program, Read, Step, Values, Words, Write

#: The caller's half of a comparator: from ``(less, equal, values)`` of the comparison (one
#: entry per processor; ``values`` holds what the extra reads returned) to ``(swap, writes)``:
#: which pairs to exchange and the word writes to make while the tokens are written back.
Decision: TypeAlias = Callable[[Flags, Flags, Values], tuple[Flags, Sequence[Write]]]


class Keys(Protocol):
    """How tokens are laid out in memory, compared and moved."""

    #: Cells per token.
    width: int
    #: The largest token the representation holds (padding records use it).
    largest: int

    def store(self, m: Machine, name: str, tokens: Words) -> Array:
        """Allocate an array holding ``tokens`` (host input: costs no steps)."""
        ...

    def allocate(self, m: Machine, name: str, n: int) -> Array:
        """Allocate room for ``n`` tokens, undefined until written."""
        ...

    def load(self, array: Array) -> Words:
        """The tokens held in ``array``, as integers (host output: costs no steps)."""
        ...

    def compare(
        self, m: Machine, pid: Words, a: Array, i: Words, b: Array, j: Words
    ) -> Program[tuple[Flags, Flags]]:
        """Processors ``pid`` learn ``(a[i] < b[j], a[i] == b[j])``, one pair each."""
        ...

    def copy(
        self, m: Machine, pid: Words, source: Array, i: Words, target: Array, j: Words
    ) -> Program[None]:
        """Processors ``pid`` copy token ``source[i]`` to ``target[j]``, one each."""
        ...

    def compare_exchange(
        self,
        m: Machine,
        pid: Words,
        a: Array,
        i: Words,
        j: Words,
        decide: Decision,
        reads: Sequence[Read] = (),
    ) -> Program[None]:
        """Processors ``pid`` each compare tokens ``a[i]`` and ``a[j]`` and exchange them if told.

        Every processor also makes the word reads ``reads`` (aligned with ``pid``) no later than
        the comparison, hands ``(a[i] < a[j], a[i] == a[j], values of reads)`` to ``decide``, and
        then writes both tokens back (exchanged where ``swap`` holds), making the word writes
        ``decide`` returned in the same step as the last token write. The pairs of one call
        must be disjoint, so the whole call is exclusive (EREW).
        """
        ...


class WordKeys:
    """A token is one word: a comparison reads two cells in one step.

    A comparator takes two steps per processor: one reading both tokens (and the extra words),
    one writing both back (and the extra words).
    """

    width = 1
    largest = int(np.iinfo(np.int64).max)

    def store(self, m: Machine, name: str, tokens: Words) -> Array:
        return m.array(name, values=tokens)

    def allocate(self, m: Machine, name: str, n: int) -> Array:
        return m.array(name, size=n)

    def load(self, array: Array) -> Words:
        return array.to_numpy()

    def compare(
        self, m: Machine, pid: Words, a: Array, i: Words, b: Array, j: Words
    ) -> Program[tuple[Flags, Flags]]:
        x, y = yield Step(pid, reads=(Read(a, i), Read(b, j)))
        return x < y, x == y

    def copy(
        self, m: Machine, pid: Words, source: Array, i: Words, target: Array, j: Words
    ) -> Program[None]:
        (x,) = yield Step(pid, reads=(Read(source, i),))
        yield Step(pid, writes=(Write(target, j, x),))

    def compare_exchange(
        self,
        m: Machine,
        pid: Words,
        a: Array,
        i: Words,
        j: Words,
        decide: Decision,
        reads: Sequence[Read] = (),
    ) -> Program[None]:
        x, y, *extra = yield Step(pid, reads=(Read(a, i), Read(a, j), *reads))
        swap, writes = decide(x < y, x == y, tuple(extra))
        yield Step(
            pid,
            writes=(Write(a, i, np.where(swap, y, x)), Write(a, j, np.where(swap, x, y)), *writes),
        )


def word_keys() -> WordKeys:
    """The word representation (one cell per token)."""
    return WordKeys()


__all__ = ["Decision", "Keys", "WordKeys", "word_keys"]
