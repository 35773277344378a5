"""Phases 3 (read) and 4 (commit) of a step, written once over memory with an instance axis
(:mod:`pram.engine.core` numbers the phases): a batch's ``(size, B)`` columns, or a single
machine's one row by numpy's broadcasting."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pram._held import cells_of as _cells_of
from pram._held import defined_of as _defined_of
from pram._held import undefined_reads_of as _undefined_reads_of
from pram._numpy import np
from pram.engine import instances
from pram.engine.fast import bound
from pram.engine.validate import Port
from pram.engine.views import BatchPort
from pram.errors import UndefinedReadError
from pram.memory import Array, Flags, Words
from pram.registers import Register
from pram.violations import UndefinedRead

if TYPE_CHECKING:
    from pram.engine.core import Host
    from pram.engine.passes import Passes


class ReadAndCommit:
    """Phases 3 and 4 of :class:`pram.engine.core.Engine`: the reads of a step's ports, the
    records of undefined reads, and the stores of its writes."""

    __slots__ = ()
    host: Host
    batch: int | None
    passes: Passes | None

    def _when(self, i: int, number: int) -> tuple[int, int | None]:
        """The step and the instance to name in a record or refusal about instance ``i`` of
        the step ``number``: a batch's instance by its own count of steps (one idling in a
        loop took fewer); a single machine's one instance by none."""
        passes = self.passes
        if passes is None:
            return number, None
        return passes.ledgers.time(i) + 1, i

    def _read(self, port: Port | BatchPort, number: int) -> Register:
        """The values read, as a register of the step's processors (one row per instance; 0
        where a processor does not act)."""
        array, index, acting = port.array, port.index, port.acting
        if acting is not None and array.size == 0:  # nothing can be read (none acts)
            values: Any = np.zeros((self.batch or 1, index.shape[-1]),
                                   dtype=_cells_of(array).dtype)
        else:
            if acting is not None:
                index = np.where(acting, index, 0)  # a processor that does not act reads none
            # the indices were checked in range
            flags = instances._columns(array, "_defined")
            if flags is not None:
                known = instances.gather(flags, index)
                unknown = ~known if acting is None else ~known & acting
                if unknown.any():
                    self._undefined(port, unknown, index, number)
            values = instances.gather(instances._columns(array, "_cells"), index)
            if acting is not None:
                values = np.where(acting, values, 0)
        spread = port.spread  # a single machine's port holds the processors acting only
        if spread is not None:
            full = np.zeros(len(spread), dtype=values.dtype)
            full[spread] = values
            values = full
        return Register(
            values, bound(port.step.processors), self.host._token  # type: ignore[arg-type]
        )

    def _undefined(self, port: Port | BatchPort, unknown: Flags, index: Words,
                   number: int) -> None:
        """Record (or, on a strict machine, refuse) the reads of cells holding no value, in
        each instance by its own step."""
        host = self.host
        array = port.array
        rows = unknown.reshape(-1, unknown.shape[-1])
        pids = port.processors
        shape: tuple[int, ...] = getattr(array, "shape", ())
        columns = shape[1] if len(shape) == 2 else 0  # a cell named by pair (row, column)
        for i in np.flatnonzero(rows.any(axis=1)).tolist():
            row = index if index.ndim == 1 else index[i]
            step, instance = self._when(i, number)
            for j in np.flatnonzero(rows[i]).tolist():
                record = UndefinedRead(step, port.step.phase, array.name, int(row[j]),
                                       int(pids[j]), columns, instance=instance)
                if host.strict:
                    raise UndefinedReadError(
                        record.message, step=record.step, array=record.array,
                        index=record.index, processor=record.processor, instance=instance,
                    )
                _undefined_reads_of(host).append(record)

    def _store(self, port: Port | BatchPort,
               settled: dict[int, tuple[Words, Words]] | None) -> None:
        """Write ``port``'s values in every instance whose writes to the array the model did
        not resolve (those are stored from the resolution, :func:`_settle`)."""
        array, index, acting = port.array, port.index, port.acting
        value: Any = port.value
        batch = self.batch or 1
        if settled:
            if len(settled) == batch:
                return  # every instance's writes to the array resolved
            keep = np.ones(batch, dtype=np.bool_)
            keep[list(settled)] = False
            kept = np.broadcast_to(keep[:, None], (batch, index.shape[-1]))
            acting = kept if acting is None else acting & kept
        cells, defined = instances._columns(array, "_cells"), instances._columns(array, "_defined")
        if acting is None and index.ndim == 1:  # one index for every instance
            if isinstance(value, np.ndarray):  # one row per instance, or one for all
                value = value.T if value.ndim == 2 else (
                    value[:, None] if cells.ndim == 2 else value)
            cells[index] = value
            if defined is not None:
                defined[index] = True
            return
        n = index.shape[-1]
        flat = index * batch + np.arange(batch, dtype=np.int64)[:, None]
        full = np.broadcast_to(np.asarray(value, dtype=cells.dtype), (batch, n))
        if acting is not None:
            acting = np.broadcast_to(acting, (batch, n))
            flat, full = flat[acting], full[acting]
        cells.reshape(-1)[flat] = full
        if defined is not None:
            defined.reshape(-1)[flat] = True


def _settle(array: Array, i: int, cells: Words, values: Words) -> None:
    """Store the writes the model resolved in instance ``i`` of ``array`` (one machine's
    memory is its one row)."""
    rows = _cells_of(array)
    (rows if rows.ndim == 2 else rows[None])[i, cells] = values
    flags = _defined_of(array)
    if flags is not None:
        (flags if flags.ndim == 2 else flags[None])[i, cells] = True


__all__ = ["ReadAndCommit"]
