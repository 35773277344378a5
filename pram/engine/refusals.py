"""The machine's refusals of a malformed step: each rule's message written once, raised alike
for a single machine and for an instance of a batch (``instance``: the message starts with it,
and the error carries it as :attr:`pram.PRAMError.instance`).

:mod:`pram.engine.validate` and the batch's :mod:`pram.engine.checks` decide *whether* a step
breaks a rule; the functions here say *what* it broke, and the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from pram._numpy import np
from pram.errors import AddressError, StepError
from pram.memory import Array, beyond_word
from pram.step import Read, Write
from pram.violations import when

__all__ = [
    "INT64_MAX", "INT64_MIN", "MAX_ACCESSES", "ROUND", "accesses", "cells", "describe",
    "outside", "outside_shape", "read_object", "reals_into_words", "refuse_array",
    "refuse_index", "refuse_key", "refuse_mask", "refuse_per_processor", "too_many", "too_wide",
    "too_wide_index", "write_object",
]

INT64_MIN = int(np.iinfo(np.int64).min)
INT64_MAX = int(np.iinfo(np.int64).max)
#: How many reads, and how many writes, one processor may make in one step.
MAX_ACCESSES = 8
#: The fix for reals bound for an int64 array: never a silent truncation.
ROUND = (
    "allocate the array with dtype=float to hold reals, or round explicitly, e.g. "
    "np.rint(x).astype(np.int64)"
)


# ---- refusals: each rule's message, once, for a single machine and a batch alike ----------
# ``instance`` is the instance of a batch the refusal is about (None on a single machine): the
# message starts with it and the error carries it (``PRAMError.instance``).


def _in(instance: int | None) -> str:
    return "" if instance is None else f"instance {instance}: "


def too_many(reads: Sequence[object], writes: Sequence[object]) -> bool:
    """Whether a step exceeds :data:`MAX_ACCESSES` reads or writes per processor."""
    return len(reads) > MAX_ACCESSES or len(writes) > MAX_ACCESSES


def accesses(reads: Sequence[object], writes: Sequence[object], number: int) -> None:
    """Refuse a step over :data:`MAX_ACCESSES` reads or writes per processor."""
    if too_many(reads, writes):
        raise StepError(
            f"step {number} asks each processor for {len(reads)} reads and "
            f"{len(writes)} writes; at most {MAX_ACCESSES} of each are allowed, so "
            "split the work over more steps",
            number,
        )


def read_object(read: object, number: int) -> None:
    """Refuse a read of a step that is not a :class:`Read`."""
    if type(read) is not Read:
        raise StepError(f"reads of step {number} must be Read objects (got {read!r})", number)


def write_object(write: object, number: int) -> None:
    """Refuse a write of a step that is not a :class:`Write`."""
    if type(write) is not Write:
        raise StepError(f"writes of step {number} must be Write objects (got {write!r})", number)


def refuse_array(array: object, number: int) -> NoReturn:
    """Refuse an access to something that is not an array of this machine (the single and
    the batched engine alike)."""
    if not isinstance(array, Array):
        raise StepError(
            f"an access in step {number} names {array!r}, which is not a pram Array; "
            "allocate arrays with Machine.array",
            number,
        )
    if array.freed:
        raise StepError(
            f"array {array.name!r} accessed in step {number} was freed; free an array "
            "only after the last step that accesses it",
            number,
        )
    raise StepError(
        f"array {array.name!r} accessed in step {number} belongs to another machine; "
        "allocate it on this one",
        number,
    )


def refuse_per_processor(subject: str, number: int, kind: str, n: int, each: str,
                         got: Any) -> NoReturn:
    """Refuse ``got`` as ``subject`` in step ``number``: it must be ``kind`` array of shape
    ``(n,)``, ``each`` saying what else it may be (one per processor, or one for all)."""
    raise StepError(
        f"{subject} in step {number} must be {kind} array of shape ({n},){each} (got "
        f"{describe(got)})",
        number,
    )


def refuse_mask(where: Any, n: int, number: int, array: Array) -> NoReturn:
    """Refuse a ``where`` mask that is not a boolean for each processor."""
    refuse_per_processor(f"where of an access to {array.name}", number, "a boolean", n,
                         ", one flag per processor", where)


def refuse_index(index: Any, n: int, number: int, array: Array) -> NoReturn:
    """Refuse an index that is not one integer, or an integer for each processor."""
    refuse_per_processor(f"index into {array.name}", number, "an integer", n,
                         ", one cell per processor", index)


def refuse_key(array: Array, number: int) -> NoReturn:
    """Refuse a pair into a flat array, or one index into a two-dimensional one."""
    if len(array.shape) == 1:
        raise StepError(
            f"the index into {array.name} in step {number} is a pair, but {array.name} is flat "
            f"({cells(array)}); pass one index per processor, e.g. Read({array.name}, i)",
            number,
        )
    columns = array.shape[1]
    raise StepError(
        f"the index into {array.name} in step {number} is one index per processor, but "
        f"{array.name} is two-dimensional, shape {array.shape}; pass a pair "
        f"Read({array.name}, (i, j)) of row and column indices (for a flat cell k, "
        f"(k // {columns}, k % {columns}))",
        number,
    )


def too_wide(subject: str, got: int, number: int, fix: str = "") -> NoReturn:
    """Refuse ``got``, given as ``subject`` of a step, beyond the int64 range."""
    raise StepError(beyond_word(f"{subject} in step {number}", got, fix), number)


def too_wide_index(got: int, number: int, array: Array) -> NoReturn:
    """Refuse one index beyond the int64 range."""
    too_wide(f"index into {array.name}", got, number, f"{array.name} has {cells(array)}")


def reals_into_words(value: Any, number: int, array: Array) -> NoReturn:
    """Refuse reals (one, or an array of them) written to an array of words."""
    held = (f"is the real {value!r}" if not isinstance(value, np.ndarray)
            else f"holds reals (dtype {value.dtype})")
    raise StepError(
        f"value written to {array.name} in step {number} {held}, but {array.name} holds int64 "
        f"words; {ROUND}",
        number,
    )


def outside(processor: int, verb: str, array: Array, cell: int, number: int, phase: str,
            instance: int | None = None) -> NoReturn:
    """Refuse processor ``processor``'s access to cell ``cell`` outside a flat array."""
    raise AddressError(
        f"{_in(instance)}processor {processor} tried to {verb} {array.name}[{cell}] "
        f"{when(number, phase)}, but {array.name} has {cells(array)}",
        step=number, array=array.name, index=cell, processor=processor, instance=instance,
    )


def outside_shape(processor: int, verb: str, array: Array, row: int, column: int, number: int,
                  phase: str, instance: int | None = None) -> NoReturn:
    """Refuse processor ``processor``'s access to a pair outside a two-dimensional array."""
    rows, columns = array.shape
    raise AddressError(
        f"{_in(instance)}processor {processor} tried to {verb} {array.name}[{row}, {column}] "
        f"{when(number, phase)}, which is outside shape "
        f"{array.shape} (rows 0 to {rows - 1}, columns 0 to {columns - 1})",
        step=number, array=array.name, index=row * columns + column, processor=processor,
        instance=instance,
    )

def cells(array: Array) -> str:
    """The valid indices of ``array``, for messages."""
    return f"indices 0 to {array.size - 1}" if array.size else "no cells"

def describe(x: Any) -> str:
    """What ``x`` is, for messages: an array's dtype and shape, anything else's repr."""
    if isinstance(x, np.ndarray):
        return f"array of dtype {x.dtype} and shape {x.shape}"
    return repr(x)
