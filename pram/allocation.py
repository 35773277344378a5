"""The cells of a new array: what ``m.array(name, size, values, dtype=..., shape=...)`` asks
for, checked and made: a name no array alive has, cells flat or two-dimensional, one row per
instance on a batched machine.

What the machine keeps of an array once made (its cells, their defined flags, sealing and
freeing) is :class:`pram.memory.Array`; this module only turns what the host asked for into
those cells, refusing a name, size, shape or values that disagree with a message naming the fix.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

import numpy.typing as npt

from pram._numpy import np
from pram.errors import InputError
from pram.memory import Flags, contents, rows, zeros

__all__ = ["allocation", "unused"]


def unused(name: Any, taken: Container[str]) -> str:
    """``name`` for a new array on a machine whose arrays alive are named ``taken``, or a
    refusal naming the fix: a non-empty string, not one of ``taken``."""
    if not isinstance(name, str) or not name:
        raise InputError(f"array name must be a non-empty string (got {name!r})")
    if name in taken:
        raise InputError(
            f"array {name!r} already exists on this machine (a program run before may "
            f"have allocated it); free it first with m.free(m.arrays[{name!r}]), run the "
            "program inside `with m.scope():` to free the arrays it allocates when the "
            "block ends, or choose another name"
        )
    return name


def allocation(
    name: str, size: Any, values: Any, kind: np.dtype[Any], shape: Any, batch: int | None,
) -> tuple[npt.NDArray[Any], Flags | None, tuple[int, ...]]:
    """The cells of a new array ``name`` (``size`` undefined cells, or a copy of ``values``
    of dtype ``kind``; ``shape`` ``(r, c)`` for a two-dimensional one), their defined flags
    (None: all defined) and its shape (``()`` for a flat one): one row per instance on a
    machine of ``batch`` instances (:func:`rows`), flat on a single one (``batch`` None)."""
    if shape is not None:
        shape = _shape(shape, name)
    if values is None:
        if shape is not None:
            if size is not None and size != shape[0] * shape[1]:
                raise InputError(
                    f"size of array {name!r} is {size} but its shape {shape} holds "
                    f"{shape[0] * shape[1]} cells; pass one of them"
                )
            size = shape[0] * shape[1]
        if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 0:
            raise InputError(
                f"size of array {name!r} must be a non-negative integer (got {size!r})"
            )
        if batch is not None:  # instances side by side in memory (see rows)
            cells = np.zeros((batch, int(size)), kind, order="F")
            return cells, np.zeros((batch, int(size)), np.bool_, order="F"), shape or ()
        return zeros(int(size), kind.type), zeros(int(size), np.bool_), shape or ()
    if batch is not None:
        cells, shape = rows(values, batch, shape, f"values of array {name!r}", kind)
        if size is not None and size != cells.shape[1]:
            raise InputError(
                f"size of array {name!r} is {size} but {cells.shape[1]} values per "
                "instance were given; pass one of them"
            )
        return cells, None, shape or ()
    try:
        given = np.ndim(values)
    except (TypeError, ValueError):
        given = 1  # refused by contents, with the message for flat arrays
    if given > 2:
        raise InputError(
            f"values of array {name!r} must be one- or two-dimensional (got "
            f"{given} dimensions); pass a flat array, or a matrix for shape=(r, c)"
        )
    ndim = 2 if shape is not None or given == 2 else 1
    grid = contents(values, f"values of array {name!r}", kind, ndim)
    if shape is not None and grid.shape != shape:
        raise InputError(
            f"values of array {name!r} have shape {grid.shape} but shape {shape} was "
            "given; pass one of them"
        )
    cells = grid.reshape(-1)
    if size is not None and size != len(cells):
        raise InputError(
            f"size of array {name!r} is {size} but {len(cells)} values were given; "
            "pass one of them"
        )
    return cells, None, (int(grid.shape[0]), int(grid.shape[1])) if ndim == 2 else ()


def _shape(shape: Any, name: str) -> tuple[int, int]:
    """``shape`` as two non-negative ints, or an InputError naming array ``name``."""
    if (not isinstance(shape, tuple | list) or len(shape) != 2
            or any(isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0
                   for n in shape)):
        raise InputError(
            f"shape of array {name!r} must be two non-negative integers (rows, columns) "
            f"(got {shape!r}); pass e.g. shape=(4, 8), or size= for a flat array"
        )
    return int(shape[0]), int(shape[1])
