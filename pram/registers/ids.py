"""Processor ids: immutable once registers are bound to them, and opaque when chosen by data.

A register is bound to an array of processor ids; changing them in place would move values
between processors without memory, so the ids a register is bound to live in memory nothing
can write (:func:`freeze`). Ids selected by a register mask (the processors that chose
themselves by their data) are a :class:`Chosen` array: their number is data, so registers of
them compare by identity only (:func:`same`), never by value.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._numpy import np

if TYPE_CHECKING:
    from pram.registers.register import Register

Ids = npt.NDArray[np.integer[Any]]


class Chosen(np.ndarray):
    """Processor ids chosen by data (a selection by a register mask): their number is data.

    ``parent`` is the ids they were chosen from, ``key`` the mask register that chose them.
    """

    parent: Ids
    key: Register
    #: The mask as it was when it chose (``key``'s values then), over ``parent``.
    mask: npt.NDArray[np.bool_]


def freeze(ids: Ids) -> Ids:
    """``ids`` in immutable memory: the array itself if nothing can change it (the ids
    :meth:`pram.Machine.processors` hands out, what this function made, and views of them),
    else a copy whose memory nothing can write, made once per array and checked against it at
    every later use (a view or base array may have changed it since)."""
    if type(ids) is Chosen or immutable(ids):
        return ids
    key = id(ids)
    seen = _FROZEN.get(key)
    if seen is not None and seen[0]() is ids and seen[1].shape == ids.shape \
            and _equal(ids.astype(np.int64, copy=False), seen[1]):
        return seen[1]
    frozen: Ids = np.frombuffer(ids.astype(np.int64, copy=False).tobytes(), dtype=np.int64)
    if ids.ndim != 1:
        frozen = frozen.reshape(ids.shape)
    _FROZEN[key] = (weakref.ref(ids, lambda _: _FROZEN.pop(key, None)), frozen)
    return frozen


def immutable(ids: npt.NDArray[Any]) -> bool:
    """Whether nothing can change ``ids``: its memory is a ``bytes`` object (numpy refuses to
    make any array over it writeable), directly or through the plain arrays it is a view of."""
    base = ids.base
    while type(base) is np.ndarray:
        base = base.base
    return isinstance(base, bytes)


#: The frozen copy of each array of ids frozen so far, for as long as the array lives.
_FROZEN: dict[int, tuple[weakref.ref[Ids], Ids]] = {}


def same_memory(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> bool:
    """Whether ``a`` and ``b`` are the same entries of the same memory (one array seen
    through two array objects, as ``x.view(np.ndarray)`` and ``x``): then they hold the same
    values, whatever they are, without reading them."""
    return (a.shape == b.shape and a.dtype == b.dtype and a.strides == b.strides
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def same_processors(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> bool:
    """Whether two arrays of processor ids are the same ids in the same order (cheap first).

    Two large arrays that nothing can change (:func:`immutable`: the ids registers are bound
    to) are compared once; the answer is kept for as long as both live."""
    if a is b:
        return True
    if a.shape != b.shape:
        return False
    if a.size <= _SMALL:
        return _equal(a, b)
    key = (id(a), id(b))
    known = _SAME.get(key)
    if known is not None and known[0]() is a and known[1]() is b:
        return known[2]
    equal = _equal(a, b)
    if immutable(a) and immutable(b):
        def forget(_: object) -> None:
            _SAME.pop(key, None)
        _SAME[key] = (weakref.ref(a, forget), weakref.ref(b, forget), equal)
    return equal


#: The answers of :func:`same_processors` for pairs of large immutable arrays that both live.
_SAME: dict[tuple[int, int], tuple[weakref.ref[Any], weakref.ref[Any], bool]] = {}


def _equal(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> bool:
    """Whether ``a`` and ``b`` (of one shape) hold the same ids: small contiguous arrays of
    one dtype by their bytes (numpy's comparison costs more than the work on them)."""
    if a.dtype is b.dtype and a.size <= _SMALL and a.flags.c_contiguous \
            and b.flags.c_contiguous:
        return a.tobytes() == b.tobytes()
    return bool(np.array_equal(a, b))


#: Up to this many ids, arrays are compared by their bytes (copied, then compared in one
#: memcmp): 0.1 us for 8 ids, 1.1 us for 2,048, against numpy's 1.7 and 2.3 us; from 8,192
#: on numpy is faster (3.4 us against 5.0).
_SMALL = 2048


def same(a: Ids, b: Ids) -> bool:
    """Whether registers of ids ``a`` and of ids ``b`` may combine: by identity when either
    was chosen by data (comparing them would tell the host about data), else by value."""
    if a is b:
        return True
    if type(a) is Chosen or type(b) is Chosen:
        return False
    return same_processors(a, b)


def same_choice(a: Ids, b: Ids) -> bool:
    """Whether ``a`` and ``b`` are the same processors, comparing ids chosen by data by value
    (the same parent ids, the same mask): for the machine's own checks of a step only. A
    mismatch refuses the step, and the run ends there, so the program never learns the
    answer (unlike :func:`same`, which a program may ask through an operation and catch)."""
    if a is b:
        return True
    if type(a) is Chosen and type(b) is Chosen:
        return same_choice(a.parent, b.parent) and bool(np.array_equal(a.mask, b.mask))
    if type(a) is Chosen or type(b) is Chosen:
        return False
    return same_processors(a, b)


__all__ = [
    "Chosen", "Ids", "freeze", "immutable", "same", "same_choice", "same_memory",
    "same_processors",
]
