"""The seam through which every algorithm stores, compares and moves tokens.

A token is a key or a query. With :class:`WordKeys` it is one machine word and a comparison is
one read of two cells; with bit keys (a later module) it is d cells and a comparison is itself
a PRAM sub-program. Algorithms only ever call the methods of :class:`Keys`, so swapping the
representation changes their cost, never their answers.
"""

from __future__ import annotations

from typing import Protocol


from pram import Array, Flags, Machine, Program, Read, Step, Words, Write


class Keys(Protocol):
    """How tokens are laid out in memory, compared and copied."""

    #: Cells per token.
    width: int

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


class WordKeys:
    """A token is one word: a comparison reads two cells in one step."""

    width = 1

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


def word_keys() -> WordKeys:
    """The word representation (one cell per token)."""
    return WordKeys()


__all__ = ["Keys", "WordKeys", "word_keys"]
