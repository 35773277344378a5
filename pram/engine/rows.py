"""A batch's registers and selections: one row per instance, and the passes' rows put
together (:func:`merge_rows`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy.typing as npt

from pram._held import owners_of as _owners_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.memory import Array, Flags, Words
from pram.registers import Register
from pram.registers.ids import Chosen, same_processors

__all__ = ["batched", "both", "chosen_rows", "described", "merge_rows", "of_instance",
           "records_of", "root", "two_meet"]


# ---- registers of a batch -------------------------------------------------------------------


def batched(values: npt.NDArray[Any], processors: npt.NDArray[Any]) -> bool:
    """Whether register ``values`` over ``processors`` hold one row per instance."""
    return values.ndim > processors.ndim


def merge_rows(passes: Sequence[tuple[Any, Flags | None]], first: Any) -> Any:
    """What a run of several passes returns (:meth:`pram.Machine.run`): registers returned by
    every pass put together row by row, each instance's row from the pass that ran it (its
    flags), through tuples and lists of the same length; any other value (or registers the
    passes returned in different shapes) is ``first``, instance 0's pass's."""
    values = [value for value, _ in passes]
    head = values[0]
    if all(type(v) is type(head) for v in values):
        if isinstance(head, tuple | list) and all(len(v) == len(head) for v in values):
            parts = [merge_rows([(v[k], mine) for v, (_, mine) in zip(values, passes,
                                                                    strict=True)],
                                first[k] if isinstance(first, tuple | list) else head[k])
                     for k in range(len(head))]
            return type(head)(parts)
        if isinstance(head, Register):
            return _merged_register(passes, first)
    return first


def _merged_register(passes: Sequence[tuple[Any, Flags | None]], first: Register) -> Any:
    pids = [_owners_of(value) for value, _ in passes]
    if any(type(p) is Chosen or not same_processors(p, pids[0]) for p in pids):
        return first  # processors chosen by data: each pass's register is its own
    batch = next(len(mine) for _, mine in passes if mine is not None)
    rows: npt.NDArray[Any] | None = None
    for value, mine in passes:
        held = _raw_of(value)
        if held.ndim == pids[0].ndim:  # one row shared by every instance: values from sizes
            held = np.broadcast_to(held, (batch, *held.shape))
        if rows is None:
            rows = np.array(held, copy=True)
        elif held.shape != rows.shape or held.dtype != rows.dtype:
            return first
        rows[mine if mine is not None else slice(None)] = held[
            mine if mine is not None else slice(None)]
    return Register(rows, pids[0], passes[0][0]._run)  # type: ignore[arg-type]


def chosen_rows(ids: Any) -> Flags | None:
    """The flags ``(batch, n)`` of processors chosen by data in a batch (which of the full
    width of ``ids`` chose themselves, per instance), or None for other ids."""
    if type(ids) is Chosen:
        return getattr(ids, "rows", None)
    return None


def root(ids: Any) -> Any:
    """The ids a (possibly nested) selection in a batch was first chosen from."""
    while chosen_rows(ids) is not None:
        ids = ids.parent
    return ids



def both(a: Flags | None, b: Flags | None) -> Flags | None:
    if a is None:
        return b
    if b is None:
        return a
    return a & b



def two_meet(cells: Words, ranks: Words, ranked: int, acting: Flags | None = None, *,
              same: bool = False) -> Flags:
    """Per row of ``cells`` (accesses of one instance, ``ranks`` the processors' ranks):
    whether two processors of different ranks touched one cell (``acting`` masks accesses);
    with ``same``, whether any cell appears twice at all."""
    key = cells * ranked + ranks
    if acting is not None:
        low = min(int(key.min()), 0) if key.size else 0
        spare = low - (np.arange(1, cells.shape[1] + 1, dtype=np.int64) * ranked)
        key = np.where(acting, key, spare)
    key = np.sort(key, axis=1)
    cell = key // ranked
    same_cell = cell[:, 1:] == cell[:, :-1]
    if same:
        return same_cell.any(axis=1)  # type: ignore[no-any-return]
    other = key[:, 1:] != key[:, :-1]
    return (same_cell & other).any(axis=1)  # type: ignore[no-any-return]



def of_instance(record: Any, i: int) -> Any:
    """``record`` (a violation or resolution) of instance ``i``."""
    import attrs

    return attrs.evolve(record, instance=i)



def records_of(records: list[Any], before: int, group: Flags) -> list[Any]:
    """``records`` without those a pass of ``group``'s instances made (after the first
    ``before``, kept): what a new pass of the group starts from."""
    return records[:before] + [r for r in records[before:] if not group[r.instance]]



def described(array: Array) -> str:
    """An array's size (and shape, when two-dimensional) and dtype, for a message."""
    shape = f", shape {array.shape}" if len(array.shape) == 2 else ""
    return f"size {array.size}{shape}, dtype {array.dtype}"
