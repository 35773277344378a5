"""One instance's (or several instances') view of a batched step's ports and arrays, shaped
as the single machine's slow path (:mod:`pram.engine.conflicts`) reads them, and the state
of a batched run's passes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._held import HeldCells
from pram._held import cells_of as _cells_of
from pram._held import cost_of as _cost_of
from pram._held import defined_of as _defined_of
from pram._held import put_cells as _put_cells
from pram._held import resolutions_of as _resolutions_of
from pram._held import undefined_reads_of as _undefined_reads_of
from pram._held import violations_of as _violations_of
from pram._numpy import np
from pram.memory import Array, Flags, Words
from pram.step import Step

if TYPE_CHECKING:
    from pram.engine.ledgers import Ledgers
    from pram.engine.passes import Passes
    from pram.machine import Machine

Counts = npt.NDArray[np.int64]

__all__ = ["BatchPort", "Draw", "InstancePort", "InstanceRow", "ManyPort", "Pass", "Start",
           "Together", "apart", "no_choice"]


# ---- the engine ----------------------------------------------------------------------------


class BatchPort:
    """One Read or Write of one step of a batch, validated: indices ``(n,)`` shared by every
    instance or ``(batch, n)``; ``where`` None (every processor), ``(n,)`` or ``(batch, n)``;
    values likewise (or one integer)."""

    __slots__ = ("array", "ascending", "branch", "index", "is_write", "own", "pid", "rank",
                 "step", "value", "where")

    #: The processors read values are spread back to: all, the port's full width.
    spread = None

    def __init__(self, step: Step, branch: int, rank: int, pid: Words, array: Array,
                 index: Words, where: Flags | None, value: Words | int | None) -> None:
        self.step, self.branch, self.rank, self.pid = step, branch, rank, pid
        self.array, self.index, self.where, self.value = array, index, where, value
        #: ``where`` before the instances that idle were masked out of it (see _met).
        self.own = where
        self.is_write = value is not None
        #: Whether the indices (shared) are known to be strictly ascending.
        self.ascending = False

    @property
    def acting(self) -> Flags | None:
        """Which of the port's indices act (None: all): its ``where``."""
        return self.where

    @property
    def processors(self) -> Words:
        """The ids of the processors of the port's indices (its full width)."""
        return self.pid

    def count(self) -> int | Counts:
        """The accesses through this port, per instance (an int when the same for all)."""
        where = self.where
        if where is None:
            return len(self.pid)
        if where.ndim == 1:
            return int(np.count_nonzero(where))
        counted: Counts = np.count_nonzero(where, axis=1).astype(np.int64)
        return counted


class InstancePort:
    """One instance's view of a port, shaped as the single machine's slow path reads it
    (:func:`pram.engine.conflicts.resolve`): compressed to the processors that act."""

    __slots__ = ("array", "branch", "index", "is_write", "processors", "value")

    def __init__(self, port: BatchPort, i: int, array: InstanceRow, acting: Flags | None) -> None:
        index = port.index if port.index.ndim == 1 else port.index[i]
        pid = port.pid
        value = port.value
        if value is not None:
            given = np.asarray(value)  # as the port holds them (words written to reals too)
            value = np.broadcast_to(given[i] if given.ndim == 2 else given, index.shape)
        if acting is not None:
            index, pid = index[acting], pid[acting]
            value = None if value is None else value[acting]
        self.array, self.branch, self.is_write = array, port.branch, port.is_write
        self.index = np.ascontiguousarray(index)
        self.processors = np.ascontiguousarray(pid).astype(np.int64, copy=False)
        self.value = None if value is None else np.ascontiguousarray(value)


class InstanceRow(HeldCells):
    """One instance's row of an array, named like it (what the slow path reads of it)."""

    __slots__ = ("_array", "name", "shape", "size")  # the cells: HeldCells' slot

    def __init__(self, array: Array, i: int) -> None:
        self.name, self.size, self._array = array.name, array.size, array
        self.shape = getattr(array, "shape", (array.size,))
        _put_cells(self, _cells_of(array)[i])

    def cell(self, index: int) -> str:
        """Cell ``index`` by name, as the array names it (for messages)."""
        name: Any = getattr(self._array, "cell", None)
        return f"{self.name}[{index}]" if name is None else str(name(index))


class ManyPort:
    """A port of several instances as one array's port
    (:meth:`pram.engine.checks.Checks._resolve_together`): instance ``rows[j]``'s cell c as
    cell ``j * size + c``, only the processors that act."""

    __slots__ = ("array", "branch", "index", "is_write", "processors", "value")

    def __init__(self, port: BatchPort, rows: Words, size: int, batch: int,
                 array: Together) -> None:
        n = len(port.pid)
        shape = (len(rows), n)
        index = np.broadcast_to(port.index, (batch, n))[rows]
        index = index + (np.arange(len(rows), dtype=np.int64) * size)[:, None]
        acting = None if port.where is None else np.broadcast_to(port.where, (batch, n))[rows]
        pid = np.broadcast_to(port.pid.astype(np.int64, copy=False), shape)
        value = port.value
        if value is not None:
            given = np.asarray(value)  # as the port holds them (words written to reals too)
            value = np.broadcast_to(given, (batch, n))[rows] if given.ndim == 2 else \
                np.broadcast_to(given, shape)
        if acting is None:
            self.index, self.processors = index.reshape(-1), np.ascontiguousarray(pid).reshape(-1)
            self.value = None if value is None else np.ascontiguousarray(value).reshape(-1)
        else:
            self.index, self.processors = index[acting], pid[acting]
            self.value = None if value is None else value[acting]
        self.array, self.branch, self.is_write = array, port.branch, port.is_write


class Together(HeldCells):
    """The instances ``rows`` of an array, side by side as one array (what the slow path
    reads of it: its name, its shape for the cells' names, and old contents by cell)."""

    __slots__ = ("_array", "name", "rows", "shape", "size")  # the cells: HeldCells' slot

    def __init__(self, array: Array, rows: Words) -> None:
        self._array, self.rows, self.name = array, rows, array.name
        self.shape = getattr(array, "shape", (array.size,))
        self.size = array.size * len(rows)
        _put_cells(self, self)  # indexed by cell: see __getitem__

    def __getitem__(self, cells: Words) -> Any:
        size = self._array.size
        return _cells_of(self._array)[self.rows[cells // size], cells % size]


def no_choice() -> np.random.Generator:
    """The slow path's random generator where no model draws from it."""
    return np.random.default_rng(0)


def apart(record: Any, rows: Words, size: int, ledgers: Ledgers) -> Any:
    """A record of the instances side by side, as its own instance's (its cell, and the
    step by the instance's own count: an instance that idled in a loop took fewer)."""
    import attrs

    j, cell = divmod(int(record.index), size)
    i = int(rows[j])
    return attrs.evolve(record, index=cell, instance=i, step=ledgers.time(i) + 1)


class Draw:
    """Instance ``i``'s random generator, made at its first choice (what the slow path
    calls)."""

    __slots__ = ("engine", "i")

    def __init__(self, engine: Passes, i: int) -> None:
        self.engine, self.i = engine, i

    def __call__(self) -> np.random.Generator:
        return self.engine.generator(self.i)


class Start:
    """What a batched run started from, which each later pass restores for its instances:
    the table of arrays and a copy of their cells (and of which cells hold a value), the
    ledgers, the machine's ledger, the records' lengths, the processor ids handed out, the
    cells alive and every instance's random generator."""

    __slots__ = ("alive_cells", "arrays", "cells", "cost", "ledgers", "processors", "random",
                 "records", "sizes", "steps")

    def __init__(self, host: Machine, engine: Passes, copied: bool) -> None:
        self.arrays = dict(host.arrays)
        # (no copy of memory for a program that cannot be made again: no pass restores it)
        self.cells = [(array, _cells_of(array).copy(order="K"), _copied(_defined_of(array)))
                      for array in self.arrays.values()] if copied else []
        self.ledgers = engine.ledgers.copy()  # the list of steps shared: it only grows
        self.steps = len(engine.ledgers.steps)
        self.cost = _cost_of(host).fresh()
        self.records = (len(_violations_of(host)), len(_resolutions_of(host)),
                        len(_undefined_reads_of(host)))
        self.processors = host._next_processor
        self.alive_cells = host._alive_cells
        #: Each instance's generator as the run found it, kept at its first draw of the
        #: run (:meth:`pram.engine.passes.Passes.generator`): None when it had none.
        self.random: dict[int, np.random.Generator | None] = {}
        self.sizes = engine.sizes


def _copied(flags: Flags | None) -> Flags | None:
    """A copy of an array's flags of which cells hold a value (None stays None), its layout
    kept."""
    return None if flags is None else flags.copy(order="K")


class Pass:
    """A pass of a batched run that ended: the instances it finished (those that never left
    its path), its ledgers and machine ledger, its table of arrays, the ids it handed out."""

    __slots__ = ("arrays", "cost", "finished", "ledgers", "processors")

    def __init__(self, finished: Flags, engine: Passes) -> None:
        host = engine.host
        self.finished, self.ledgers, self.cost = finished, engine.ledgers, _cost_of(host)
        self.arrays, self.processors = dict(host.arrays), host._next_processor
