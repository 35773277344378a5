"""Shared memory: named arrays of words (int64) or reals (float64), flat or two-dimensional."""

from __future__ import annotations

import mmap
from typing import Any, NoReturn, TypeVar

import numpy.typing as npt

from pram._held import HeldCells
from pram._held import cells_of as _cells_of
from pram._held import defined_of as _defined_of
from pram._held import put_cells as _put_cells
from pram._held import put_defined as _put_defined
from pram._numpy import np
from pram.errors import HonestyError, InputError
from pram.final import Final

Words = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Seats = npt.NDArray[np.int32]

D = TypeVar("D", bound=np.generic)

_INT64 = np.iinfo(np.int64)
_CONVERT = (
    "make them integers explicitly, e.g. numpy.rint(x).astype(numpy.int64) for reals (a plain "
    "cast would truncate them)"
)
#: The dtype of a machine word (numpy's int64 dtype is one object, so ``is`` compares it).
WORD = np.dtype(np.int64)
#: The dtype of a real (float64), the other dtype an array may hold.
REAL = np.dtype(np.float64)
#: The dtypes an array may hold: machine words (the default) and reals.
DTYPES = {"int64": WORD, "float64": REAL}
Reals = npt.NDArray[np.float64]
_DIMENSIONS = {1: "one-dimensional", 2: "two-dimensional", 3: "three-dimensional"}


def _array_of(values: Any, name: str, ndim: int, what: str, fix: str) -> npt.NDArray[Any]:
    """``values`` as numpy makes them, of ``ndim`` dimensions, or an InputError naming
    ``name``: the first half of :func:`words` and :func:`reals` (the dtype is theirs)."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError, OverflowError):
        raise InputError(
            f"{name} must be an array of {what} (got a {type(values).__name__} numpy cannot "
            f"turn into an array); pass {fix}"
        ) from None
    if array.ndim != ndim:
        shape = "a flat array" if ndim == 1 else f"an array of {ndim} dimensions"
        dimensions = _DIMENSIONS.get(ndim, f"{ndim}-dimensional")
        raise InputError(f"{name} must be {dimensions} (got shape {array.shape}); pass {shape}")
    return array


def words(values: Any, name: str, *, ndim: int = 1, floats: str = "") -> Words:
    """``values`` as a fresh int64 array of ``ndim`` dimensions, or an InputError naming ``name``.

    The one check every host-side input of integers passes through, so that every caller refuses
    the same things with the same message: arrays of another shape, bools, floats, strings and
    anything numpy cannot convert, and integers outside int64. An empty array of any numeric dtype
    is an empty integer array (``numpy.array([])`` is float64). Checks particular to a caller
    (sortedness, signs, lengths) stay with the caller.

    >>> words([3, 1, 2], "keys").tolist()
    [3, 1, 2]
    """
    array = _array_of(values, name, ndim, "integers", "a flat sequence of integers")
    kind = array.dtype.kind
    if kind == "O":
        return _objects(array, name)
    if kind in "fc" and array.size == 0:
        return np.zeros(array.shape, dtype=np.int64)
    if kind not in "iu":
        hint = floats if kind == "f" else ""
        raise InputError(f"{name} must be integers (got dtype {array.dtype}); {hint}{_CONVERT}")
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
    try:
        if nbytes < _MAPPED_BYTES or not hasattr(mmap, "MAP_PRIVATE"):
            return np.zeros(n, dtype=dtype)
        pages = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OverflowError, OSError, MemoryError, ValueError):  # an input, not a bug: say so
        raise InputError(
            f"an array of {n:,} cells ({nbytes:,} bytes) cannot be allocated on this machine; "
            "allocate a smaller one"
        ) from None
    return np.frombuffer(pages, dtype=dtype)


def dtype_of(dtype: Any, name: str) -> np.dtype[Any]:
    """The dtype an array of ``name`` asks for: int64 (``int``, ``np.int64``, ``"int64"``, or
    None) or float64 (``float``, ``np.float64``, ``"float64"``); anything else refused."""
    if dtype is None or dtype is int:
        return DTYPES["int64"]
    if dtype is float:
        return DTYPES["float64"]
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        resolved = None
    if resolved is None or resolved.name not in DTYPES:
        raise InputError(
            f"dtype of array {name!r} must be int (int64, the default) or float (float64) "
            f"(got {dtype!r}); pass dtype=int or dtype=float"
        )
    return DTYPES[resolved.name]


def reals(values: Any, name: str, *, ndim: int = 1) -> Reals:
    """``values`` as a fresh float64 array of ``ndim`` dimensions, or an InputError naming
    ``name``: integers are taken as the reals they are (exact up to 2**53), bools, complex
    numbers, strings and objects are refused."""
    array = _array_of(values, name, ndim, "reals", "a sequence of numbers")
    if array.dtype.kind not in "iuf" and array.size:
        raise InputError(
            f"{name} must be reals (got dtype {array.dtype}); pass integers or floats, e.g. "
            "numpy.asarray(x, dtype=float)"
        )
    return np.array(array, dtype=np.float64)


def _objects(array: npt.NDArray[np.object_], name: str) -> Words:
    """An object array (numpy's choice for Python ints beyond 64 bits) checked item by item."""
    items = array.reshape(-1).tolist()
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int | np.integer):
            raise InputError(f"{name} must be integers (got {item!r}); {_CONVERT}")
        if not _INT64.min <= int(item) <= _INT64.max:
            _too_big(int(item), name)
    return np.array(items, dtype=np.int64).reshape(array.shape)


def beyond_word(subject: str, value: int, fix: str = "") -> str:
    """The message for ``value``, given as ``subject``, beyond the int64 range (the one text
    of it, for inputs and for a step's indices and values alike)."""
    return f"{subject} must fit in int64 (got {value})" + (f"; {fix}" if fix else "")


def _too_big(value: int, name: str) -> NoReturn:
    fix = "use values below 2**63" if value > 0 else "use values from -2**63 up"
    raise InputError(beyond_word(name, value, fix))


def contents(values: Any, name: str, dtype: np.dtype[Any], ndim: int = 1) -> npt.NDArray[Any]:
    """``values`` as a fresh array of ``dtype`` (int64 or float64) and ``ndim`` dimensions, or
    an InputError: reals for an int64 array are refused with both fixes (a float array, or
    explicit rounding), never a truncating cast."""
    if dtype == np.float64:
        return reals(values, name, ndim=ndim)
    return words(values, name, ndim=ndim, floats="pass dtype=float to keep them real, or ")


def rows(
    values: Any, batch: int, shape: tuple[int, int] | None, name: str,
    dtype: np.dtype[Any] | None = None,
) -> tuple[npt.NDArray[Any], tuple[int, int] | None]:
    """``values`` as ``(batch, size)`` cells of ``dtype``, one row per instance of a batched
    machine, and the shape of a two-dimensional array (None for a flat one).

    A flat array is given as ``(batch, size)`` rows, or one flat row every instance starts
    from; a two-dimensional one (``shape=(r, c)``, or values of three dimensions) as
    ``(batch, r, c)``, or one ``(r, c)`` matrix for all, each instance's cells row-major.

    In memory a cell's instances lie side by side (Fortran order: the array is the transpose
    of a ``(size, batch)`` one), so a step's gather or scatter of n cells moves n runs of
    ``batch`` words, not ``batch * n`` scattered words: measured at n = 512 of 1,024 cells, a
    gather by a cell index is 3 (B = 64) to 10 (B = 1,024) times quicker than along rows, a
    scatter 5 to 17 times."""
    try:
        given = np.ndim(values)
    except (TypeError, ValueError):
        given = 1  # refused by contents, with the message for flat arrays
    grid = shape is not None or given == 3
    if given not in ((2, 3) if grid else (1, 2)):
        _per_instance(name, batch, grid, np.shape(values))
    one = given == (2 if grid else 1)  # one instance's values, the same for all
    ndim = (2 if grid else 1) + (0 if one else 1)
    cells = contents(values, name, WORD if dtype is None else dtype, ndim)
    if not one and cells.shape[0] != batch:
        _per_instance(name, batch, grid, cells.shape)
    if one:
        cells = np.broadcast_to(cells, (batch, *cells.shape))
    found = (int(cells.shape[1]), int(cells.shape[2])) if grid else None
    if shape is not None and found != shape:
        raise InputError(
            f"{name} have shape {found} per instance but shape {shape} was given; pass one of "
            "them"
        )
    return np.array(cells.reshape(batch, -1), order="F"), found  # writeable, even if shared


def _per_instance(name: str, batch: int, grid: bool, given: tuple[int, ...]) -> NoReturn:
    """Refuse values of a batched machine's array that are not one row (or matrix) per
    instance nor one for all, naming the batch and the shape given."""
    if grid:
        form, each, alone = f"({batch}, r, c)", "one (r, c) matrix", "matrices"
    else:
        form, each, alone = f"({batch}, size)", "one row", "rows"
    raise InputError(
        f"{name} must be of shape {form}, {each} per instance of the batch of {batch} (got "
        f"shape {given}); pass {batch} {alone}, or {each} every instance starts from"
        + ("" if grid else f", or shape ({batch}, r, c) for a two-dimensional array")
    )


def batch_view(cells: npt.NDArray[Any], shape: tuple[int, ...]) -> npt.NDArray[Any]:
    """A batched machine's ``(batch, size)`` cells as ``(batch, *shape)``, a view."""
    if len(shape) == 1:
        return cells
    rows_, columns = shape
    return cells.T.reshape(rows_, columns, cells.shape[0]).transpose(2, 0, 1)


class Array(HeldCells, metaclass=Final):
    """A named array of ``size`` cells in a machine's shared memory: int64 words (the
    default) or float64 reals (:attr:`dtype`), flat or of two dimensions (:attr:`shape`).

    Allocate it with :meth:`pram.Machine.array`. A two-dimensional array of shape ``(r, c)``
    holds its ``r * c`` cells row-major (cell ``i * c + j`` is ``A[i, j]``), and steps address
    it by pairs ``(i, j)``; :meth:`to_numpy` and :attr:`values` have its shape. A cell
    allocated without a value is undefined until written; reading it first is reported.
    :meth:`to_numpy` copies the contents out for the host (input and output are not machine
    steps and cost nothing). While a program runs the array is sealed: its contents reach the
    program only through the reads of a step, and :meth:`to_numpy`, :attr:`values`,
    :attr:`defined` and host writes raise :class:`pram.HonestyError`. No alias of the cells
    survives into a run: cells the host was handed (:attr:`values`) are copied afresh when a
    run starts, and :attr:`values` assigned are copied in.
    """

    # The cells and the flags of which hold a value are in HeldCells' slots, which no
    # attribute path reaches (pram._held).
    __slots__ = ("_begun", "_exposed", "_freed", "_name", "_sealed", "_shape", "_size")

    def __init__(
        self, name: str, values: Words, defined: Flags | None, shape: tuple[int, ...] = ()
    ) -> None:
        if hasattr(self, "_name"):  # made again: unsealed mid-run, or resized
            raise HonestyError(
                f"array {self.name!r} is made once, by Machine.array; calling its __init__ "
                "again would unseal or resize it; allocate another array"
            )
        self._name: str = name
        self._size: int = values.shape[-1] if values.ndim else 0
        self._shape: tuple[int, ...] = shape or (self._size,)
        #: The contents, for the machine only (programs use steps, the host :attr:`values`).
        _put_cells(self, values)
        # None when every cell holds a value: the common case pays nothing for the check.
        _put_defined(self, defined)
        #: Set by the machine while a program runs (read it as :attr:`sealed`).
        self._sealed = False
        #: Whether the host holds the cells or the flags themselves (:attr:`values`,
    #: :attr:`defined`): both copied at a run's start.
        self._exposed = False
        self._freed = False
        #: How many runs have begun on it: a copy taken as one began is refused (to_numpy).
        self._begun = 0

    # The name, the sizes and whether the array was freed are read-only: a program (or the
    # host mid-run) that resized an array would move its addresses under the machine's checks.

    @property
    def name(self) -> str:
        """The name the array was allocated under (unique on its machine)."""
        return self._name

    @property
    def size(self) -> int:
        """The cells of one instance (a batched machine keeps ``(batch, size)`` cells, one
        row per instance)."""
        return self._size

    @property
    def shape(self) -> tuple[int, ...]:
        """``(size,)`` for a flat array, ``(rows, columns)`` for a two-dimensional one."""
        return self._shape

    @property
    def freed(self) -> bool:
        """Whether :meth:`pram.Machine.free` released the cells (then nothing may access
        them)."""
        return self._freed

    @property
    def dtype(self) -> np.dtype[Any]:
        """What the cells hold: ``int64`` words or ``float64`` reals (a size, not data)."""
        return _cells_of(self).dtype

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
        return _defined_of(self)

    @property
    def values(self) -> Words:
        """The contents (the array itself, not a copy): for the host, before or after a run.

        A run started later works on fresh cells, so the host's alias sees none of its writes.
        """
        if self._sealed:
            self._refuse(f"reading {self.name}.values")
        self._exposed = True
        if _cells_of(self).ndim == 2:
            return batch_view(_cells_of(self), self.shape)
        return _cells_of(self) if len(self.shape) == 1 else _cells_of(self).reshape(self.shape)

    @values.setter
    def values(self, values: Words) -> None:
        if self._sealed:
            self._refuse(f"writing {self.name}.values")
        if _cells_of(self).ndim == 2:  # a batched machine's array: one row per instance
            grid = self.shape if len(self.shape) == 2 else None
            batched, _ = rows(values, _cells_of(self).shape[0], grid,
                              f"values of array {self.name!r}", _cells_of(self).dtype)
            if batched.shape[1] != self.size:
                raise InputError(
                    f"{self.name}.values needs {self.size} values per instance (got "
                    f"{batched.shape[1]}); pass one per cell, or allocate another array"
                )
            _put_cells(self, batched)
            return
        cells = contents(values, f"values of array {self.name!r}", _cells_of(self).dtype,
                         len(self.shape))
        if cells.shape != self.shape:
            raise InputError(
                f"{self.name}.values needs shape {self.shape} (got {cells.shape}); pass one "
                "value per cell, or allocate another array"
            )
        _put_cells(self, cells.reshape(-1))  # a copy: the buffer given stays the host's

    def begin(self) -> None:
        """Called by the machine as a run starts: the host keeps no alias of the cells or of
        the flags of which cells hold a value (both were handed out by :attr:`values` and
        :attr:`defined`), so an alias taken before the run sees none of its writes."""
        self._begun += 1
        if self._exposed:
            _put_cells(self, _cells_of(self).copy(order="K"))  # a batch's layout kept
            flags = _defined_of(self)
            if flags is not None:
                _put_defined(self, flags.copy(order="K"))
            self._exposed = False

    @property
    def batch(self) -> int | None:
        """The instances of a batched machine, one row of cells each; None on a single one."""
        return _cells_of(self).shape[0] if _cells_of(self).ndim == 2 else None

    def to_numpy(self) -> Words:
        """A copy of the array's current contents (refused while a program runs): its shape,
        and on a batched machine one row per instance before it (``(batch, size)``, or
        ``(batch, r, c)`` for a two-dimensional array)."""
        begun = self._begun
        if self._sealed:
            self._refuse(f"{self.name}.to_numpy()")
        if self.freed:
            raise InputError(
                f"array {self.name!r} was freed; copy it out with to_numpy before freeing it"
            )
        if _cells_of(self).ndim == 2:
            copied = np.array(batch_view(_cells_of(self), self.shape), order="C")
        else:
            copied = _cells_of(self).copy()
            copied = copied if len(self.shape) == 1 else copied.reshape(self.shape)
        if self._sealed or self._begun != begun:  # another thread's run began meanwhile
            self._refuse(f"{self.name}.to_numpy() (a copy begun as a run started)")
        return copied

    def _refuse(self, operation: str) -> NoReturn:
        raise HonestyError(
            f"{operation} while a program runs reaches memory outside the machine's steps; "
            f"read {self.name} with a Read in a step, or call to_numpy() after the run"
        )

    def __getstate__(self) -> Any:
        # pickle (every protocol), copy.copy and copy.deepcopy all take the state from here:
        # while a program runs it would carry the cells out of the machine (to another
        # process, or to a copy the program could read), so it is refused; before and after
        # a run they work as ever.
        if self._sealed:
            raise HonestyError(
                f"pickling or copying array {self.name!r} (sending it to another process or "
                "thread, or copying its cells) while a program runs lets data leave the "
                f"machine's steps; read {self.name} with a Read in a step, and pickle or copy "
                "it (or its to_numpy()) after the run"
            )
        return _cells_of(self), _defined_of(self), object.__getstate__(self)

    def __setstate__(self, state: Any) -> None:
        # A pickle or copy made back: the cells into their slot, the rest into theirs. A live
        # array is never remade this way while its machine runs a program (see __init__).
        if getattr(self, "_sealed", False):
            self._refuse(f"restoring {self.name} from a pickle")
        cells, defined, (_, slots) = state
        _put_cells(self, cells)
        _put_defined(self, defined)
        for name, value in slots.items():
            setattr(self, name, value)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        size = f"shape={self.shape}" if len(self.shape) > 1 else f"size={self.size}"
        kind = "" if _cells_of(self).dtype == np.int64 else f", dtype={_cells_of(self).dtype}"
        return f"Array({self.name!r}, {size}{kind})"

    def cell(self, index: int) -> str:
        """Cell ``index`` (a flat index) by name, for messages: ``A[5]`` or ``A[1, 2]``."""
        if len(self.shape) == 1:
            return f"{self.name}[{index}]"
        return f"{self.name}[{index // self.shape[1]}, {index % self.shape[1]}]"
