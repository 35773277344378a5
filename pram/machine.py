"""The machine: shared memory, synchronous steps checked against an access model, and a ledger.

A step is executed as *evaluate, then commit*: every read sees memory as it was before the step,
every write is applied together at its end after the model has resolved concurrent writers.
Work is vectorised across processors with numpy, so Python cost is paid per step and per
access port, never per processor.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypeVar

import numpy as np

from pram.cost import Cost, PhaseCost
from pram.errors import AddressError, ConflictError, InputError, StepError, UndefinedReadError
from pram.memory import Array, Flags, Words
from pram.models import Model, model
from pram.step import Bundle, Program, Step, Values
from pram.violations import Kind, UndefinedRead, Violation

T = TypeVar("T")

#: Accesses of one kind a processor may make in one step: the "small constant" of the model.
MAX_ACCESSES = 8

#: Below this many checked accesses per array, duplicates are found with a Python set.
_SMALL = 24


class _Access:
    """One read or write port of one step, its indices compressed to the processors acting."""

    __slots__ = ("array", "index", "is_write", "port", "step", "value", "where")

    def __init__(
        self,
        step: Step,
        port: int,
        array: Array,
        index: Words,
        where: Flags | None,
        value: Words | None,
    ) -> None:
        self.step = step
        self.port = port
        self.array = array
        self.index = index
        self.where = where
        self.value = value
        self.is_write = value is not None

    @property
    def processors(self) -> Words:
        pid = self.step.processors
        return pid if self.where is None else pid[self.where]


class Machine:
    """A PRAM: allocate arrays, then :meth:`run` programs on them.

    ``model`` is an access model name (``"erew"``, the default, ``"crew"``, ``"crcw-common"``,
    ``"crcw-arbitrary"``, ``"crcw-priority"``, ``"crcw-sum"``, ``"crcw-max"``, ``"crcw-min"``).
    ``mode="collect"`` records every violation and finishes the run; ``mode="raise"`` raises
    :class:`ConflictError` at the first. ``strict`` makes undefined reads an error instead of
    a record. ``seed`` drives the CRCW-arbitrary choice.

    >>> import numpy as np
    >>> from pram import Machine, Read, Step, Write
    >>> m = Machine()
    >>> a = m.array("a", values=np.array([1, 2]))
    >>> def swap(m, a):
    ...     pid = m.processors(2)
    ...     x, = yield Step(pid, reads=[Read(a, pid)])
    ...     yield Step(pid, writes=[Write(a, 1 - pid, x)])
    >>> m.run(swap(m, a)); a.to_numpy().tolist(), m.cost.time, m.cost.work
    (None, [2, 1], 2, 4)
    """

    def __init__(
        self,
        model_name: str | Model = "erew",
        *,
        mode: Literal["collect", "raise"] = "collect",
        strict: bool = True,
        seed: int = 0,
    ) -> None:
        if mode not in ("collect", "raise"):
            raise InputError(f"mode must be 'collect' or 'raise' (got {mode!r})")
        self.model = model(model_name)
        self.mode = mode
        self.strict = strict
        self.cost = Cost()
        self.violations: list[Violation] = []
        self.undefined_reads: list[UndefinedRead] = []
        self.arrays: dict[str, Array] = {}
        self._rng = np.random.default_rng(seed)
        self._next_processor = 0
        self._prefixes: dict[str, tuple[str, ...]] = {}

    # ---- memory and processors -------------------------------------------------------------

    def array(self, name: str, size: int | None = None, values: Any = None) -> Array:
        """Allocate a named array: ``size`` undefined cells, or a copy of ``values``."""
        if not isinstance(name, str) or not name:
            raise InputError(f"array name must be a non-empty string (got {name!r})")
        if name in self.arrays:
            raise InputError(f"array {name!r} already exists on this machine; choose another name")
        if values is None:
            if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 0:
                raise InputError(
                    f"size of array {name!r} must be a non-negative integer (got {size!r})"
                )
            words = np.zeros(int(size), dtype=np.int64)
            defined: Flags | None = np.zeros(int(size), dtype=np.bool_)
        else:
            words = _words(values, f"values of array {name!r}")
            if size is not None and size != len(words):
                raise InputError(
                    f"size of array {name!r} is {size} but {len(words)} values were given; "
                    "pass one of them"
                )
            defined = None
        array = Array(name, words, defined)
        self.arrays[name] = array
        self.cost.memory_cells += array.size
        return array

    def processors(self, n: int) -> Words:
        """``n`` fresh processor ids, distinct from every id handed out before on this machine."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise InputError(f"number of processors must be a non-negative integer (got {n!r})")
        first = self._next_processor
        self._next_processor += int(n)
        return np.arange(first, first + int(n), dtype=np.int64)

    # ---- running programs ------------------------------------------------------------------

    def run(self, program: Program[T]) -> T:
        """Drive ``program`` to its end, one global step per request; return its result."""
        try:
            request = next(program)
            while True:
                if isinstance(request, Step):
                    reply: Values | list[Values] = self.execute((request,))[0]
                elif isinstance(request, Bundle):
                    reply = self.execute(request.steps)
                else:
                    raise StepError(
                        f"a program must yield Step or Bundle objects (got {request!r}) "
                        f"before step {self.cost.time + 1}",
                        self.cost.time + 1,
                    )
                request = program.send(reply)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    def execute(self, steps: Sequence[Step]) -> list[Values]:
        """Execute one global step made of ``steps`` (one per parallel branch)."""
        number = self.cost.time + 1
        accesses: list[_Access] = []
        for step in steps:
            self._gather_accesses(step, number, accesses)
        by_array: dict[int, list[_Access]] = {}
        for access in accesses:
            by_array.setdefault(id(access.array), []).append(access)
        resolved: dict[int, tuple[Words, Words]] = {}
        for group in by_array.values():
            outcome = self._check(group, number)
            if outcome is not None:
                resolved[id(group[0].array)] = outcome
        replies: dict[int, list[Words]] = {id(step): [] for step in steps}
        for access in accesses:
            if not access.is_write:
                replies[id(access.step)].append(self._read(access, number))
        for group in by_array.values():
            array = group[0].array
            if id(array) in resolved:
                cells, values = resolved[id(array)]
                self._store(array, cells, values)
            else:
                for access in group:
                    if access.value is not None:
                        self._store(array, access.index, access.value)
        self._account(steps, accesses)
        return [tuple(replies[id(step)]) for step in steps]

    # ---- the parts of a step ---------------------------------------------------------------

    def _gather_accesses(self, step: Step, number: int, accesses: list[_Access]) -> None:
        pid = step.processors
        if not isinstance(pid, np.ndarray) or pid.ndim != 1 or pid.dtype.kind not in "iu":
            raise StepError(
                f"processors of step {number} must be a 1-d integer array (got {pid!r})", number
            )
        n = len(pid)
        if len(step.reads) > MAX_ACCESSES or len(step.writes) > MAX_ACCESSES:
            raise StepError(
                f"step {number} asks each processor for {len(step.reads)} reads and "
                f"{len(step.writes)} writes; at most {MAX_ACCESSES} of each are allowed, so "
                "split the work over more steps",
                number,
            )
        for port, read in enumerate(step.reads):
            where = _mask(read.where, n, number, "where")
            index = _index(read.index, n, number, read.array, where)
            self._check_bounds(step, read.array, index, where, number, "read")
            accesses.append(_Access(step, port, read.array, index, where, None))
        for port, write in enumerate(step.writes):
            where = _mask(write.where, n, number, "where")
            index = _index(write.index, n, number, write.array, where)
            value = _value(write.value, n, number, write.array, where)
            self._check_bounds(step, write.array, index, where, number, "write")
            accesses.append(_Access(step, port, write.array, index, where, value))

    def _check_bounds(
        self, step: Step, array: Array, index: Words, where: Flags | None, number: int, verb: str
    ) -> None:
        if len(index) == 0 or int(index.view(np.uint64).max()) < array.size:
            return
        bad = int(np.flatnonzero((index < 0) | (index >= array.size))[0])
        pid = step.processors if where is None else step.processors[where]
        cells = f"indices 0 to {array.size - 1}" if array.size else "no cells"
        raise AddressError(
            f"processor {int(pid[bad])} tried to {verb} {array.name}[{int(index[bad])}] in step "
            f"{number}{_phase_text(step.phase)}, but {array.name} has {cells}",
            step=number,
            array=array.name,
            index=int(index[bad]),
            processor=int(pid[bad]),
        )

    def _check(self, group: list[_Access], number: int) -> tuple[Words, Words] | None:
        """Check one array's accesses against the model; return resolved writes if they clash."""
        checked = [a for a in group if a.is_write or self.model.checks_reads]
        total = sum(len(a.index) for a in checked)
        if total < 2 or self._distinct(checked, total):
            return None
        return self._collide(group, number)

    def _distinct(self, checked: list[_Access], total: int) -> bool:
        """Whether no cell is touched by two different processors (one pass each way)."""
        if total <= _SMALL:
            seen: dict[int, int] = {}
            for access in checked:
                for cell, pid in zip(access.index.tolist(), access.processors.tolist(), strict=True):
                    if seen.setdefault(cell, pid) != pid:
                        return False
            return True
        marks = checked[0].array.marks
        # Every cell touched gets the id of the last processor to touch it; a cell touched by
        # two processors then shows a foreign id to at least one of them.
        for access in checked:
            marks[access.index] = access.processors
        return all(np.array_equal(marks[a.index], a.processors) for a in checked)

    def _collide(self, group: list[_Access], number: int) -> tuple[Words, Words] | None:
        """The slow path: name every violation at the clashing cells, resolve their writes."""
        array = group[0].array
        reads = [a for a in group if not a.is_write]
        writes = [a for a in group if a.is_write]
        read_cells, read_pids = _flatten(reads)
        write_cells, write_pids = _flatten(writes)
        write_values = (
            np.concatenate([a.value for a in writes if a.value is not None])
            if writes
            else np.zeros(0, dtype=np.int64)
        )
        # Writes sorted by (cell, processor): each cell's writers form one run.
        order = np.lexsort((write_pids, write_cells))
        write_cells, write_pids, write_values = (
            write_cells[order],
            write_pids[order],
            write_values[order],
        )
        if len(write_cells) > 1:
            # A processor writing one cell through two ports: its later port's value lands.
            again = (write_cells[1:] == write_cells[:-1]) & (write_pids[1:] == write_pids[:-1])
            keep = np.r_[~again, True]
            write_cells, write_pids, write_values = (
                write_cells[keep],
                write_pids[keep],
                write_values[keep],
            )
        starts = np.flatnonzero(np.r_[True, write_cells[1:] != write_cells[:-1]])
        self._judge(array, number, group, read_cells, read_pids, write_cells, write_pids,
                    write_values, starts)
        if len(starts) == len(write_cells):
            return None
        cells = write_cells[starts]
        return cells, self.model.resolve(write_values, starts, self._rng)

    def _judge(
        self,
        array: Array,
        number: int,
        group: list[_Access],
        read_cells: Words,
        read_pids: Words,
        write_cells: Words,
        write_pids: Words,
        write_values: Words,
        starts: Words,
    ) -> None:
        """Record (or raise) a violation for each forbidden meeting of accesses at one cell."""
        sizes = np.diff(np.append(starts, len(write_cells)))
        shared_writes = write_cells[starts[sizes > 1]]
        if self.model.checks_reads:
            read_order = np.argsort(read_cells, kind="stable")
            read_cells, read_pids = read_cells[read_order], read_pids[read_order]
            cells = np.union1d(read_cells, write_cells)
            counts = np.searchsorted(read_cells, cells, "right") - np.searchsorted(
                read_cells, cells, "left"
            ) + np.searchsorted(write_cells, cells, "right") - np.searchsorted(
                write_cells, cells, "left"
            )
            suspects = cells[counts > 1]
        else:
            suspects = shared_writes
        if len(suspects) == 0:
            return
        phases = {id(a.step): a.step.phase for a in group}
        phase_of = _phase_lookup(group, phases)
        found: list[Violation] = []
        for cell in suspects.tolist():
            r0, r1 = np.searchsorted(read_cells, [cell, cell + 1]) if len(read_cells) else (0, 0)
            w0, w1 = np.searchsorted(write_cells, [cell, cell + 1])
            readers = sorted(set(read_pids[r0:r1].tolist()))
            writers = write_pids[w0:w1].tolist()
            values = write_values[w0:w1].tolist()
            phase = phase_of((readers + writers)[0])
            meetings: list[tuple[Kind, tuple[int, ...], tuple[int, ...]]] = []
            if len(readers) > 1:
                meetings.append((Kind.READ_READ, tuple(readers), ()))
            if len(writers) > 1:
                meetings.append((Kind.WRITE_WRITE, tuple(writers), tuple(values)))
            if readers and writers and set(readers + writers) != {readers[0]}:
                meetings.append((Kind.READ_WRITE, tuple(sorted(set(readers + writers))), ()))
            for kind, pids, written in meetings:
                agree = len(set(written)) <= 1
                if not self.model.forbids(kind, agree):
                    continue
                shown = written if kind is Kind.WRITE_WRITE and self.model.judges_values else ()
                found.append(
                    Violation(self.model.name, kind, number, phase, array.name, cell, pids, shown)
                )
        for violation in found:
            if self.mode == "raise":
                raise ConflictError(violation)
            self.violations.append(violation)

    def _read(self, access: _Access, number: int) -> Words:
        array, index = access.array, access.index
        if array.defined is not None:
            known = array.defined[index]
            if not known.all():
                self._undefined(access, known, number)
        values = array.values[index]
        if access.where is None:
            return values
        full = np.zeros(len(access.where), dtype=np.int64)
        full[access.where] = values
        return full

    def _undefined(self, access: _Access, known: Flags, number: int) -> None:
        pids = access.processors
        for i in np.flatnonzero(~known).tolist():
            record = UndefinedRead(
                number, access.step.phase, access.array.name, int(access.index[i]), int(pids[i])
            )
            if self.strict:
                raise UndefinedReadError(
                    record.message,
                    step=number,
                    array=record.array,
                    index=record.index,
                    processor=record.processor,
                )
            self.undefined_reads.append(record)

    @staticmethod
    def _store(array: Array, cells: Words, values: Words) -> None:
        array.values[cells] = values
        if array.defined is not None:
            array.defined[cells] = True

    def _account(self, steps: Sequence[Step], accesses: list[_Access]) -> None:
        cost = self.cost
        active = 0
        reads = 0
        writes = 0
        per_step: dict[int, list[int]] = {id(step): [0, 0] for step in steps}
        for access in accesses:
            tally = per_step[id(access.step)]
            tally[access.is_write] += len(access.index)
        labels: set[str] = set()
        for step in steps:
            n = len(step.processors)
            r, w = per_step[id(step)]
            active += n
            reads += r
            writes += w
            if step.phase:
                for label in self._prefix(step.phase):
                    share = cost.phases.get(label)
                    if share is None:
                        share = cost.phases[label] = PhaseCost()
                    share.work += n
                    share.reads += r
                    share.writes += w
                    labels.add(label)
        for label in labels:
            share = cost.phases[label]
            share.time += 1
            share.max_processors = max(share.max_processors, active)
        cost.time += 1
        cost.work += active
        cost.reads += reads
        cost.writes += writes
        cost.max_processors = max(cost.max_processors, active)
        cost.profile.append(active)
        cost.step_phases.append(tuple(sorted({step.phase for step in steps})))

    def _prefix(self, path: str) -> tuple[str, ...]:
        prefixes = self._prefixes.get(path)
        if prefixes is None:
            parts = path.split("/")
            prefixes = tuple("/".join(parts[: i + 1]) for i in range(len(parts)))
            self._prefixes[path] = prefixes
        return prefixes


# ---- validation at the boundary ------------------------------------------------------------


def _words(values: Any, what: str) -> Words:
    """``values`` as a fresh 1-d int64 array, or an InputError naming what is wrong."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise InputError(f"{what} must be one-dimensional (got shape {array.shape})")
    if array.dtype.kind == "b" or (array.dtype.kind not in "iu" and array.size):
        raise InputError(f"{what} must be integers (got dtype {array.dtype})")
    if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise InputError(f"{what} must fit in int64 (got {int(array.max())})")
    return np.array(array, dtype=np.int64)


def _mask(where: Any, n: int, number: int, what: str) -> Flags | None:
    if where is None:
        return None
    if not isinstance(where, np.ndarray) or where.dtype != np.bool_ or where.shape != (n,):
        raise StepError(
            f"{what} of an access in step {number} must be a boolean array of shape ({n},) "
            f"(got {_describe(where)})",
            number,
        )
    return where


def _index(index: Any, n: int, number: int, array: Array, where: Flags | None) -> Words:
    if isinstance(index, int | np.integer) and not isinstance(index, bool):
        index = np.full(n, int(index), dtype=np.int64)
    if (
        not isinstance(index, np.ndarray)
        or index.shape != (n,)
        or index.dtype.kind not in "iu"
    ):
        raise StepError(
            f"index into {array.name} in step {number} must be an integer array of shape ({n},), "
            f"one cell per processor (got {_describe(index)})",
            number,
        )
    if index.dtype != np.int64:
        index = index.astype(np.int64)
    return index if where is None else index[where]


def _value(value: Any, n: int, number: int, array: Array, where: Flags | None) -> Words:
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return np.full(n if where is None else int(np.count_nonzero(where)), value, np.int64)
    if not isinstance(value, np.ndarray) or value.shape != (n,) or value.dtype.kind not in "iub":
        raise StepError(
            f"value written to {array.name} in step {number} must be an integer array of shape "
            f"({n},) or one integer (got {_describe(value)})",
            number,
        )
    if value.dtype != np.int64:
        value = value.astype(np.int64)
    return value if where is None else value[where]


def _describe(x: Any) -> str:
    if isinstance(x, np.ndarray):
        return f"array of dtype {x.dtype} and shape {x.shape}"
    return repr(x)


def _flatten(accesses: Iterable[_Access]) -> tuple[Words, Words]:
    cells = [a.index for a in accesses]
    pids = [a.processors for a in accesses]
    if not cells:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(cells), np.concatenate(pids).astype(np.int64)


def _phase_lookup(group: list[_Access], phases: dict[int, str]) -> Any:
    """A function from processor id to the phase label of the branch step it acts in."""
    steps = {id(a.step): a.step for a in group}

    def phase_of(pid: int) -> str:
        for key, step in steps.items():
            if len(step.processors) and (step.processors == pid).any():
                return phases[key]
        return ""

    return phase_of


def _phase_text(phase: str) -> str:
    return f" (phase {phase!r})" if phase else ""
