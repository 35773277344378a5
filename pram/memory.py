"""Shared memory: named arrays of machine words (int64)."""

from __future__ import annotations

import mmap
from typing import Any, NoReturn, TypeVar

import numpy as np
import numpy.typing as npt

from pram.errors import HonestyError, InputError

Words = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Seats = npt.NDArray[np.int32]

D = TypeVar("D", bound=np.generic)

_INT64 = np.iinfo(np.int64)
_CONVERT = "convert them with numpy.asarray(x, dtype=numpy.int64)"
_DIMENSIONS = {1: "one-dimensional", 2: "two-dimensional", 3: "three-dimensional"}


def words(values: Any, name: str, *, ndim: int = 1) -> Words:
    """``values`` as a fresh int64 array of ``ndim`` dimensions, or an InputError naming ``name``.

    The one check every host-side input of integers passes through, so that every caller refuses
    the same things with the same message: arrays of another shape, bools, floats, strings and
    anything numpy cannot convert, and integers outside int64. An empty array of any numeric dtype
    is an empty integer array (``numpy.array([])`` is float64). Checks particular to a caller
    (sortedness, signs, lengths) stay with the caller.

    >>> words([3, 1, 2], "keys").tolist()
    [3, 1, 2]
    """
    try:
        array = np.asarray(values)
    except (TypeError, ValueError, OverflowError):
        raise InputError(
            f"{name} must be an array of integers (got a {type(values).__name__} numpy cannot "
            "turn into an array); pass a flat sequence of integers"
        ) from None
    if array.ndim != ndim:
        shape = "a flat array" if ndim == 1 else f"an array of {ndim} dimensions"
        dimensions = _DIMENSIONS.get(ndim, f"{ndim}-dimensional")
        raise InputError(f"{name} must be {dimensions} (got shape {array.shape}); pass {shape}")
    kind = array.dtype.kind
    if kind == "O":
        return _objects(array, name)
    if kind in "fc" and array.size == 0:
        return np.zeros(array.shape, dtype=np.int64)
    if kind not in "iu":
        raise InputError(f"{name} must be integers (got dtype {array.dtype}); {_CONVERT}")
    if kind == "u" and array.size and int(array.max()) > _INT64.max:
        _too_big(int(array.max()), name)
    return np.array(array, dtype=np.int64)


#: Arrays of at least this many bytes take pages of their own from the operating system.
_MAPPED_BYTES = 1 << 16


def zeros(n: int, dtype: type[D]) -> npt.NDArray[D]:
    """``n`` zeros; a large array in pages of its own, which cost memory only once written.

    Anonymous pages read as zero until first written, and go back to the system as soon as the
    array is dropped: an allocator reusing freed memory would have to write every byte (and
    might keep it), so a machine that frees arrays would stop shrinking, and one that allocates
    arrays it fills only in part would pay for all of them.
    """
    nbytes = n * np.dtype(dtype).itemsize
    if nbytes < _MAPPED_BYTES or not hasattr(mmap, "MAP_PRIVATE"):
        return np.zeros(n, dtype=dtype)
    pages = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return np.frombuffer(pages, dtype=dtype)


def _objects(array: npt.NDArray[np.object_], name: str) -> Words:
    """An object array (numpy's choice for Python ints beyond 64 bits) checked item by item."""
    items = array.reshape(-1).tolist()
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int | np.integer):
            raise InputError(f"{name} must be integers (got {item!r}); {_CONVERT}")
        if not _INT64.min <= int(item) <= _INT64.max:
            _too_big(int(item), name)
    return np.array(items, dtype=np.int64).reshape(array.shape)


def _too_big(value: int, name: str) -> NoReturn:
    fix = "use values below 2**63" if value > 0 else "use values from -2**63 up"
    raise InputError(f"{name} must fit in int64 (got {value}); {fix}")


def rows(values: Any, batch: int, size: int | None, name: str) -> Words:
    """``values`` as ``(batch, size)`` words, one row per instance of a batched machine: given
    as such, or as one flat row every instance starts from; ``size`` None takes the row's.

    In memory a cell's instances lie side by side (Fortran order: the array is the transpose
    of a ``(size, batch)`` one), so a step's gather or scatter of n cells moves n runs of
    ``batch`` words, not ``batch * n`` scattered words: measured at n = 512 of 1,024 cells, a
    gather by a cell index is 3 (B = 64) to 10 (B = 1,024) times quicker than along rows, a
    scatter 5 to 17 times."""
    array = np.asarray(values) if not isinstance(values, np.ndarray) else values
    if getattr(array, "ndim", 1) == 2:
        cells = words(array, name, ndim=2)
        if cells.shape[0] != batch:
            raise InputError(
                f"{name} has {cells.shape[0]} rows but the machine runs a batch of {batch} "
                f"instances; pass one row per instance, shape ({batch}, size), or one flat row "
                "for all"
            )
    else:
        row = words(array, name)
        cells = np.array(np.broadcast_to(row, (batch, len(row))))
    if size is not None and cells.shape[1] != size:
        raise InputError(
            f"{name} needs {size} values per instance (got {cells.shape[1]}); pass one per "
            "cell, or allocate another array"
        )
    return np.asfortranarray(cells)


class Array:
    """A named array of ``size`` int64 cells in a machine's shared memory.

    Allocate it with :meth:`pram.Machine.array`. A cell allocated without a value is undefined
    until written; reading it first is reported. :meth:`to_numpy` copies the contents out for
    the host (input and output are not machine steps and cost nothing). While a program runs
    the array is sealed: its contents reach the program only through the reads of a step, and
    :meth:`to_numpy`, :attr:`values`, :attr:`defined` and host writes raise
    :class:`pram.HonestyError`. No alias of the cells survives into a run: cells the host was
    handed (:attr:`values`) are copied afresh when a run starts, and :attr:`values` assigned
    are copied in.
    """

    __slots__ = ("_cells", "_defined", "_exposed", "_sealed", "freed", "name", "size")

    def __init__(self, name: str, values: Words, defined: Flags | None) -> None:
        self.name = name
        #: The cells of one instance (a batched machine keeps ``(batch, size)`` cells, one row
        #: per instance).
        self.size = values.shape[-1] if values.ndim else 0
        #: The contents, for the machine only (programs use steps, the host :attr:`values`).
        self._cells = values
        # None when every cell holds a value: the common case pays nothing for the check.
        self._defined = defined
        #: Set by the machine while a program runs (read it as :attr:`sealed`).
        self._sealed = False
        #: Whether the host holds the cells or the flags themselves (:attr:`values`,
    #: :attr:`defined`): both copied at a run's start.
        self._exposed = False
        #: Whether :meth:`pram.Machine.free` released the cells (then nothing may access them).
        self.freed = False

    @property
    def sealed(self) -> bool:
        """Whether a program is running on the array's machine (set by the machine only)."""
        return self._sealed

    @property
    def defined(self) -> Flags | None:
        """Which cells hold a value (None: all of them); refused while a program runs, since
        which cells a program wrote is data."""
        if self._sealed:
            self._refuse(f"reading {self.name}.defined")
        self._exposed = True
        return self._defined

    @property
    def values(self) -> Words:
        """The contents (the array itself, not a copy): for the host, before or after a run.

        A run started later works on fresh cells, so the host's alias sees none of its writes.
        """
        if self._sealed:
            self._refuse(f"reading {self.name}.values")
        self._exposed = True
        return self._cells

    @values.setter
    def values(self, values: Words) -> None:
        if self._sealed:
            self._refuse(f"writing {self.name}.values")
        if self._cells.ndim == 2:  # a batched machine's array: one row per instance
            self._cells = rows(values, self._cells.shape[0], self.size,
                               f"values of array {self.name!r}")
            return
        cells = words(values, f"values of array {self.name!r}")
        if len(cells) != self.size:
            raise InputError(
                f"{self.name}.values needs {self.size} values (got {len(cells)}); pass one per "
                "cell, or allocate another array"
            )
        self._cells = cells  # a copy: the buffer given stays the host's

    def begin(self) -> None:
        """Called by the machine as a run starts: the host keeps no alias of the cells or of
        the flags of which cells hold a value (both were handed out by :attr:`values` and
        :attr:`defined`), so an alias taken before the run sees none of its writes."""
        if self._exposed:
            self._cells = self._cells.copy(order="K")  # a batch's layout kept
            if self._defined is not None:
                self._defined = self._defined.copy(order="K")
            self._exposed = False

    @property
    def batch(self) -> int | None:
        """The instances of a batched machine, one row of cells each; None on a single one."""
        return self._cells.shape[0] if self._cells.ndim == 2 else None

    def to_numpy(self) -> Words:
        """A copy of the array's current contents (refused while a program runs): shape
        ``(size,)``, or ``(batch, size)`` on a batched machine (one row per instance)."""
        if self._sealed:
            self._refuse(f"{self.name}.to_numpy()")
        if self.freed:
            raise InputError(
                f"array {self.name!r} was freed; copy it out with to_numpy before freeing it"
            )
        return self._cells.copy()

    def _refuse(self, operation: str) -> NoReturn:
        raise HonestyError(
            f"{operation} while a program runs reaches memory outside the machine's steps; "
            f"read {self.name} with a Read in a step, or call to_numpy() after the run"
        )

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"Array({self.name!r}, size={self.size})"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("pram.Array is final: the machine takes its own arrays only")
