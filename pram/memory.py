"""Shared memory: named arrays of machine words (int64)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Words = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Seats = npt.NDArray[np.int32]


class Array:
    """A named array of ``size`` int64 cells in a machine's shared memory.

    Allocate it with :meth:`pram.Machine.array`. A cell allocated without a value is undefined
    until written; reading it first is reported. :meth:`to_numpy` copies the contents out for
    the host (input and output are not machine steps and cost nothing).
    """

    __slots__ = ("_marks", "defined", "name", "size", "values")

    def __init__(self, name: str, values: Words, defined: Flags | None) -> None:
        self.name = name
        self.size = len(values)
        self.values = values
        # None when every cell holds a value: the common case pays nothing for the check.
        self.defined = defined
        self._marks: Seats | None = None

    @property
    def marks(self) -> Seats:
        """Scratch cells the conflict check scatters processor seats into (allocated lazily).

        32 bits a cell, half the memory traffic of a word: the check is bound by it.
        """
        if self._marks is None:
            self._marks = np.empty(self.size, dtype=np.int32)
        return self._marks

    def to_numpy(self) -> Words:
        """A copy of the array's current contents."""
        return self.values.copy()

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"Array({self.name!r}, size={self.size})"
