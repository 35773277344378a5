"""The depth of every cell: the longest chain of read-then-write that made its value.

``Machine(depth=True)`` keeps a :class:`Depths`, an observer of the run (:class:`pram.run.Observer`)
that the machine adds beside any observer of its own. It follows every value as the program
moves it, and records, for every cell a step writes, the *version* it makes: the step, its
phase, its *depth* and the one version before it on its longest chain. Definition:

- a cell never written (an input, allocated with values, or a cell never written yet) has
  depth 0;
- a **read** gives each processor's register entry the depth of the cell it read, or of its
  address, its ``where`` mask or its own choice as a processor (a step's processors selected
  by data), if one of those is deeper (a value read at an address computed from data depends
  on that data);
- an **elementwise operation** gives each entry of its result the largest depth of that
  entry's operands (a constant, a plain array computed from sizes, is 0); selecting
  processors (``x[mask]``), assigning into a selection (``x[mask] = y``) and ``widen`` keep
  each entry with its own, and with its mask's where the mask is a register; an in-place
  operation (``x += y``) is the operation, and one into ``out=`` keeps the register's previous
  depths too (its ``where=`` may keep entries);
- a **write** gives the cell written 1 + the deepest of the value written, its address, its
  mask and the processor's choice; where several processors write one cell in a step (CRCW),
  the deepest write's version is the cell's.

So a tree sum of n = 2^k cells (each level reads two cells, adds, writes one) leaves depth k
at its root, and the largest depth of a run is at most half its time: only a read makes a
register deeper, a value read at one step is written at a later one at the earliest, and the
next link's read sees the write a step later again, so a cell of depth d is written at step
2d or later. The machine's loop tests (:class:`pram.Until`) tell the host one
bit and give no register: control flow adds no depth. Each version keeps one predecessor (the
version its deepest operand came from), so :meth:`Depths.chain` walks a cell's critical chain
back to an input.

It costs nothing when off: the driver asks once per run whether the machine keeps depths.
On, every step and every elementwise operation is observed (numpy work on each port's indices
and on each result's entries; six int64 per version, two per register entry until the run
ends); no count changes. A batched machine refuses ``depth=True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import numpy.typing as npt

from pram._held import owners_of as _owners_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.errors import HonestyError
from pram.memory import Array
from pram.run import current

__all__ = ["Depths", "Link"]

_Ints = npt.NDArray[np.int64]

#: Operations whose result is made from sizes only: every entry a constant, depth 0.
_CONSTANT = frozenset({"zeros_like", "ones_like", "full_like", "empty_like"})


@attrs.frozen
class Link:
    """One version of a cell on a chain: the array and cell, the step that wrote it (0 for an
    input) with its phase, and its depth."""

    array: str
    cell: int
    step: int
    phase: str
    depth: int

    def as_dict(self) -> dict[str, Any]:
        """The link as JSON-ready fields."""
        return {"array": self.array, "cell": self.cell, "step": self.step, "phase": self.phase,
                "depth": self.depth}


def _raw(x: Any) -> npt.NDArray[Any]:
    """The raw values of a register, or a plain value as an array (for the observer's use:
    the machine lets its observers look at registers while it tells them something)."""
    if type(x).__name__ == "Register" and type(x).__module__ == "pram.registers.register":
        return _raw_of(x)
    return np.asarray(x)


class Depths:
    """An observer recording the depth, step and predecessor of every version of every cell."""

    def __init__(self) -> None:
        if hasattr(self, "_columns"):
            raise HonestyError(
                "a machine's depths are made once, with it; calling their __init__ again "
                "would erase them mid-run; read m.depths after the run"
            )
        #: Whether a program is running on the machine (the driver sets it): nothing is told.
        self._sealed = False
        #: Per version: its depth, the step that made it (0: an input), the index of its
        #: phase in ``_phases``, its array's index in ``_arrays``, its cell, its predecessor.
        self._columns = np.zeros((6, 1024), dtype=np.int64)
        self._versions = 0
        self._arrays: list[Array] = []
        self._slots: dict[int, int] = {}
        #: Per array slot: the current version of each cell (-1: never written or read yet).
        self._current: list[_Ints] = []
        self._phases: list[str] = [""]
        self._phase_index: dict[str, int] = {"": 0}
        #: Per register (by id, the register kept so that its id stays its own): the depth and
        #: the version it came from (-1: none) of each entry, flat.
        self._registers: dict[int, tuple[Any, _Ints, _Ints]] = {}

    # ---- the observer's hooks ------------------------------------------------------------

    def step(self, number: int, steps: Sequence[Any], replies: Sequence[Any]) -> None:
        """Give each read's register its entries' depths, then version every cell written
        (every read of a step sees memory as it was before it)."""
        _told_by_the_machine()
        for step, reply in zip(steps, replies, strict=True):
            if not isinstance(reply, tuple):
                continue  # a loop test: the host learns one bit, no register is made
            for read, register in zip(step.reads, reply, strict=True):
                cells, mask, depth, origin = self._port(step, read)
                versions = self._versions_of(read.array, cells[mask])
                got = np.zeros(len(mask), np.int64)
                came = np.full(len(mask), -1, np.int64)
                got[mask], came[mask] = self._columns[0, versions], versions
                depth, origin = _deepest(got, came, depth, origin)
                self._registers[id(register)] = (register, depth, origin)
        for step in steps:
            phase = self._phase(str(getattr(step, "phase", "") or ""))
            for write in step.writes:
                cells, mask, depth, origin = self._port(step, write)
                value, before = self._operand(write.value, len(mask))
                depth, origin = _deepest(value, before, depth, origin)
                depth, origin, cells = depth[mask], origin[mask], cells[mask]
                order = np.argsort(depth, kind="stable")  # the deepest writer's version lands
                made = self._made(1 + depth[order], number, phase, write.array, cells[order],
                                  origin[order])
                self._current[self._slot(write.array)][cells[order]] = made

    def operation(self, name: str, operands: tuple[Any, ...], result: Any) -> None:
        """Give each entry of ``result`` the deepest of that entry's operands."""
        _told_by_the_machine()
        results = result if isinstance(result, tuple) else (result,)
        for one in results:
            self._registers[id(one)] = (one, *self._entries(name, operands, one))

    def finished(self) -> None:
        """The run ended: forget its registers (no later step takes one), keep the cells'."""
        self._registers.clear()

    def _open(self, what: str) -> None:
        """Refuse to tell ``what`` while a program runs: a depth may tell about its data."""
        if self._sealed:
            raise HonestyError(
                f"the depths ({what}) while a program runs would tell the program about its "
                "data (a cell's depth may depend on it); read m.depths after m.run"
            )

    # ---- what the recorder tells ---------------------------------------------------------

    @property
    def largest(self) -> int:
        """The largest depth of any version made."""
        self._open("largest")
        return int(self._columns[0, : self._versions].max(initial=0))

    def depths(self, array: Array) -> _Ints:
        """The depth of every cell of ``array`` now (0 for a cell never written)."""
        self._open("depths")
        return self._column_now(array, 0)

    def steps(self, array: Array) -> _Ints:
        """The step that wrote every cell of ``array`` now (0 for a cell never written)."""
        self._open("steps")
        return self._column_now(array, 1)

    def last_written(self) -> tuple[Array, int] | None:
        """The last answer cell: of the cells the last writing step wrote to the array it
        wrote last, the highest; None if no step wrote."""
        self._open("last_written")
        steps = self._columns[1, : self._versions]
        if not len(steps) or steps.max() == 0:
            return None
        last = np.flatnonzero(steps == steps.max())
        slot = self._columns[3, last[-1]]
        cells = self._columns[4, last[self._columns[3, last] == slot]]
        return self._arrays[int(slot)], int(cells.max())

    def chain(self, array: Array, cell: int) -> tuple[Link, ...]:
        """The critical chain of ``array[cell]`` as it is now: its version, then the one
        before it on its longest chain, back to a cell never written (depth decreasing by one
        a link)."""
        self._open("chain")
        slot = self._slots.get(id(array))
        version = -1 if slot is None else int(self._current[slot][cell])
        if version < 0:
            return (Link(array.name, int(cell), 0, "", 0),)
        links: list[Link] = []
        while version >= 0:
            depth, step, phase, slot, at, before = self._columns[:, version].tolist()
            links.append(Link(self._arrays[slot].name, at, step, self._phases[phase], depth))
            version = before
        return tuple(links)

    def versions(self) -> dict[str, list[Any]]:
        """Every version made, as JSON-ready columns in the order made: ``array`` (its name),
        ``cell``, ``step`` (0: an input, made as it was first read), ``depth`` and ``before``
        (the index of the version before it on its chain, -1 for none); for the trace page,
        which colours cells by depth and draws a chosen cell's chain."""
        self._open("versions")
        columns = self._columns[:, : self._versions]
        return {
            "array": [self._arrays[slot].name for slot in columns[3].tolist()],
            "cell": columns[4].tolist(),
            "step": columns[1].tolist(),
            "depth": columns[0].tolist(),
            "before": columns[5].tolist(),
        }

    def as_dict(self, time: int) -> dict[str, Any]:
        """The depths as JSON-ready fields, for a run of ``time`` steps: the largest depth,
        the time, the last answer cell (:meth:`last_written`) and its critical chain from it
        back to an input, and per top-level phase (the phase's first part, before any ``/``)
        the links of the chain it made and the steps it spans (from the step after the
        previous link's to its last link's); ``after`` is the steps after the chain's end."""
        self._open("as_dict")
        last = self.last_written()
        chain = self.chain(*last) if last is not None else ()
        phases: dict[str, list[int]] = {}
        previous = 0
        for link in reversed(chain):
            if link.step == 0:
                continue  # an input: made before the run
            part = phases.setdefault(link.phase.split("/")[0], [0, 0])
            part[0] += 1
            part[1] += link.step - previous
            previous = link.step
        return {
            "max": self.largest,
            "time": int(time),
            "cell": None if last is None else {"array": last[0].name, "cell": last[1]},
            "chain": [link.as_dict() for link in chain],
            "phases": [{"phase": name, "links": links, "steps": steps}
                       for name, (links, steps) in phases.items()],
            "after": int(time) - previous,
        }

    # ---- inside --------------------------------------------------------------------------

    def _column_now(self, array: Array, column: int) -> _Ints:
        slot = self._slots.get(id(array))
        if slot is None:
            return np.zeros(array.size, dtype=np.int64)
        current = self._current[slot]
        return np.where(current >= 0, self._columns[column, np.maximum(current, 0)], 0)

    def _port(self, step: Any, port: Any) -> tuple[_Ints, npt.NDArray[np.bool_], _Ints, _Ints]:
        """A port's flat cells, mask, and per processor the deepest of its address, mask and
        choice as a processor, with the version that came from."""
        n = _raw(step.processors).size
        depth, origin = self._operand(step.processors, n)
        index = port.index
        parts = list(index) if isinstance(index, tuple) else [index]
        flat = [np.broadcast_to(_raw(p).astype(np.int64).reshape(-1), (n,)) for p in parts]
        cells = flat[0] if len(flat) == 1 else flat[0] * port.array.shape[1] + flat[1]
        mask = (np.ones(n, np.bool_) if port.where is None
                else np.broadcast_to(_raw(port.where).astype(np.bool_).reshape(-1), (n,)))
        for part in [*parts, *([] if port.where is None else [port.where])]:
            depth, origin = _deepest(depth, origin, *self._operand(part, n))
        return cells, mask, depth, origin

    def _operand(self, x: Any, n: int) -> tuple[_Ints, _Ints]:
        """The depths and versions of an operand's entries, flat (zeros for a constant);
        broadcast to ``n`` entries, or their deepest for every entry if the shapes differ."""
        known = self._registers.get(id(x))
        if known is None or known[0] is not x:
            return np.zeros(max(n, 0), np.int64), np.full(max(n, 0), -1, np.int64)
        if n < 0:
            return known[1], known[2]
        return _sized(known[1], known[2], n)

    def _entries(self, name: str, operands: tuple[Any, ...], result: Any) -> tuple[_Ints, _Ints]:
        out = _raw(result)
        n = out.size
        if name in _CONSTANT:
            return np.zeros(n, np.int64), np.full(n, -1, np.int64)
        if name == "getitem":  # the selected entries, each with its own (and its mask's)
            source, key = operands
            d, o = self._operand(source, -1)
            shape = _raw(source).shape
            chooser = _raw(key) if self._known(key) else key
            depth = d.reshape(shape)[chooser].reshape(-1)
            origin = o.reshape(shape)[chooser].reshape(-1)
            if self._known(key):
                kd, ko = self._operand(key, -1)
                depth, origin = _deepest(depth, origin, kd.reshape(shape)[chooser].reshape(-1),
                                         ko.reshape(shape)[chooser].reshape(-1))
            return _sized(depth, origin, n)
        if name == "setitem":  # result[key] = value in place: the entries assigned take value's
            _, key, value = operands
            d, o = self._operand(result, n)
            depth, origin = d.reshape(out.shape).copy(), o.reshape(out.shape).copy()
            chooser = _raw(key) if self._known(key) else key
            place = np.shape(depth[chooser])
            vd, vo = self._operand(value, int(np.prod(place)))
            depth[chooser] = vd.reshape(place)
            origin[chooser] = vo.reshape(place)
            if self._known(key):  # which entries changed is the mask's: each depends on it
                return _deepest(depth.reshape(-1), origin.reshape(-1), *self._operand(key, n))
            return depth.reshape(-1), origin.reshape(-1)
        if name == "widen":  # the chosen processors keep their own, the others hold a constant
            register = operands[0]
            depth, origin = np.zeros(n, np.int64), np.full(n, -1, np.int64)
            chosen = _owners_of(register)
            key = getattr(chosen, "key", None)
            if key is None:
                return self._operand(register, n)
            flags = _raw_of(key).reshape(-1)
            rd, ro = self._operand(register, int(flags.sum()))
            depth[flags], origin[flags] = rd, ro
            return depth, origin
        # A register already known is one filled in place (out=, whose where= may keep
        # entries): its previous depths stay among the operands'.
        depth, origin = (self._operand(result, n) if self._known(result)
                         else (np.zeros(n, np.int64), np.full(n, -1, np.int64)))
        for operand in _flattened(operands):
            if not self._known(operand):
                continue
            depth, origin = _deepest(depth, origin, *self._operand(operand, n))
        return depth, origin

    def _known(self, x: Any) -> bool:
        known = self._registers.get(id(x))
        return known is not None and known[0] is x

    def _slot(self, array: Array) -> int:
        slot = self._slots.get(id(array))
        if slot is None:
            slot = self._slots[id(array)] = len(self._arrays)
            self._arrays.append(array)  # kept, so that its id stays its own
            self._current.append(np.full(array.size, -1, np.int64))
        return slot

    def _versions_of(self, array: Array, cells: _Ints) -> _Ints:
        """The current version of each cell read, made (depth 0, step 0) for a cell never
        written and read for the first time."""
        current = self._current[self._slot(array)]
        versions = current[cells]
        fresh = versions < 0
        if fresh.any():
            first = np.unique(cells[fresh])
            current[first] = self._made(np.zeros(len(first), np.int64), 0, 0, array, first,
                                        np.full(len(first), -1, np.int64))
            versions = current[cells]
        return versions

    def _made(self, depth: _Ints, step: int, phase: int, array: Array, cells: _Ints,
              before: _Ints) -> _Ints:
        k = len(depth)
        first = self._versions
        while first + k > self._columns.shape[1]:
            self._columns = np.concatenate([self._columns, np.zeros_like(self._columns)], axis=1)
        end = first + k
        columns = self._columns
        columns[0, first:end] = depth
        columns[1, first:end] = step
        columns[2, first:end] = phase
        columns[3, first:end] = self._slot(array)
        columns[4, first:end] = cells
        columns[5, first:end] = before
        self._versions = end
        return np.arange(first, end, dtype=np.int64)

    def _phase(self, name: str) -> int:
        index = self._phase_index.get(name)
        if index is None:
            index = self._phase_index[name] = len(self._phases)
            self._phases.append(name)
        return index


def _told_by_the_machine() -> None:
    """Refuse a call of the observer's hooks that is not the machine's (a program calling
    them would make up the records)."""
    run = current()
    if run is None or not run._observing:
        raise HonestyError(
            "the depth recorder's step and operation are the machine's to call, as it observes "
            "a run; a program's values reach memory through its steps"
        )


def _deepest(depth: _Ints, origin: _Ints, other: _Ints, came: _Ints) -> tuple[_Ints, _Ints]:
    """Entry by entry the deeper of two (depth, version) pairs; of two as deep, the first,
    unless only the second came from a version (a chain goes back through values, not
    through constants)."""
    take = (other > depth) | ((other == depth) & (origin < 0))
    return np.where(take, other, depth), np.where(take, came, origin)


def _sized(depth: _Ints, origin: _Ints, n: int) -> tuple[_Ints, _Ints]:
    """``depth`` and ``origin`` of ``n`` entries (their deepest for each if sizes differ)."""
    if len(depth) == n:
        return depth, origin
    if not len(depth):
        return np.zeros(n, np.int64), np.full(n, -1, np.int64)
    deepest = int(np.argmax(depth))
    return np.full(n, depth[deepest], np.int64), np.full(n, origin[deepest], np.int64)


def _flattened(operands: Sequence[Any]) -> list[Any]:
    """The operands, with lists and tuples of them (``np.select``'s) opened."""
    out: list[Any] = []
    for x in operands:
        if isinstance(x, list | tuple):
            out.extend(_flattened(x))
        else:
            out.append(x)
    return out
