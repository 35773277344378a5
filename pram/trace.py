"""The trace of a run: what every global step read and wrote, recorded by the machine.

``Machine(trace=True)`` keeps a :class:`Trace`: for each global step its number and phases, the
processors acting, each port's cells with the values read (or written, with the cells' values
before and after the step), the conflicts of the step (kind, cell, every processor, as in the
conflict report) and the ledger's time, work, reads and writes after it. Like memory, the trace
is sealed while a program runs (reading it raises :class:`pram.HonestyError`) and is ordinary
data afterwards. It changes no count: the engine calls the recorder twice per step, after the
step's ports are validated and after it is accounted, and reads nothing back.

Its cost is bounded: a trace holds *cells recorded*, one per cell of every array it saw (the
first snapshot of each array) plus one per access (one processor's read or write of one cell);
for a machine traced from its start that is the ledger's ``memory_cells + reads + writes``, so
an untraced run tells what a traced one needs. It refuses with :class:`TraceLimitError` (an
:class:`pram.InputError`) to record more than its ceiling (``trace_cells``, :data:`CEILING` by
default): at the allocation of an array that would cross it (before any step, for the arrays
a program starts with), else before the step that would cross it, which is then not executed.
While tracing, every step takes the engine's general path (the fast path is off): the general
path is the one that normalises ports, and no result changes either way.

Host writes to memory between two traced runs are not steps and are not recorded; a trace
replays faithfully the runs of a machine whose memory only its steps change.

>>> import numpy as np
>>> from pram import Machine, Read, Step, Write, iota
>>> m = Machine(trace=True)
>>> a = m.array("a", values=np.array([5, 6, 7]))
>>> def shift(m, a):  # every cell but the last moved one to the right
...     pid, i = m.processors(2), iota(2)
...     x, = yield Step(pid, reads=[Read(a, i)])
...     yield Step(pid, writes=[Write(a, i + 1, x)])
>>> m.run(shift(m, a))
>>> [(s.number, s.step_work, s.step_reads, s.step_writes, s.work) for s in m.trace.steps]
[(1, 2, 2, 0, 2), (2, 2, 0, 2, 4)]
>>> w = m.trace.steps[1].accesses[0]; w.cells.tolist(), w.before.tolist(), w.after.tolist()
([1, 2], [6, 7], [5, 6])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from pram._held import cells_of as _cells_of
from pram._held import defined_of as _defined_of
from pram._numpy import np
from pram.engine.validate import processors_of
from pram.errors import HonestyError, InputError
from pram.memory import Array, Flags, Words
from pram.violations import Violation

if TYPE_CHECKING:
    from pram.cost import Cost
    from pram.engine.validate import Port
    from pram.step import Step

__all__ = ["CEILING", "Access", "Trace", "TraceLimitError", "TracedArray", "TracedStep"]

#: Cells a trace records at most unless told otherwise: about 20 MB of page at most.
CEILING = 2_000_000


class TraceLimitError(InputError):
    """The trace would hold more cells than its ceiling: ``cells`` it would hold, ``ceiling``,
    and the global ``step`` before which it was refused."""

    def __init__(self, message: str, cells: int, ceiling: int, step: int) -> None:
        super().__init__(message)
        self.cells = cells
        self.ceiling = ceiling
        self.step = step


def _read_only(*arrays: Any) -> None:
    """The arrays of a recorded step made read-only: the trace is the machine's record, as the
    ledger is (``m.trace.steps[0].processors[:] = 0`` would rewrite it, and the page made of
    it); a copy is the reader's to change."""
    for array in arrays:
        if isinstance(array, np.ndarray):
            array.flags.writeable = False


@attrs.frozen
class Access:
    """One port of one step: which processors touched which cells of one array, with what.

    ``values`` are the values read (for a read) or the values the processors wrote (for a
    write); a write also has ``before`` and ``after``, the cells' contents before the step and
    after it (they differ from ``values`` where the model resolved concurrent writers; a cell
    never written before reads 0 in ``before``). Aligned arrays, one entry per processor that
    acted through the port (its ``where`` mask applied).
    """

    kind: str  # "read" or "write"
    array: str
    branch: int
    processors: Words = attrs.field(eq=False)
    cells: Words = attrs.field(eq=False)
    values: Words = attrs.field(eq=False)
    before: Words | None = attrs.field(default=None, eq=False)
    after: Words | None = attrs.field(default=None, eq=False)
    #: Whether each cell held a value as the step began (None: every one did): a read of an
    #: undefined cell, or a write onto one, shows it undefined, not as the 0 it reads as.
    defined: Flags | None = attrs.field(default=None, eq=False)

    def __len__(self) -> int:
        return len(self.cells)

    def __attrs_post_init__(self) -> None:
        _read_only(self.processors, self.cells, self.values, self.before, self.after,
                   self.defined)


@attrs.frozen
class TracedStep:
    """One global step: number, phases (one per parallel branch), processors acting, accesses,
    conflicts, and the ledger's counters after it (``time``, ``work``, ``reads``, ``writes``
    of the run so far; ``step_work`` and the like are this step's own share). ``rounds`` is
    the ledger's rounds after it, which is the number of the round the step is part of: a
    write step that joined the read step before it has that step's number
    (:mod:`pram.engine.rounds`)."""

    number: int
    phases: tuple[str, ...]
    processors: Words = attrs.field(eq=False)
    accesses: tuple[Access, ...]
    conflicts: tuple[Violation, ...]
    time: int
    work: int
    reads: int
    writes: int
    rounds: int

    def __attrs_post_init__(self) -> None:
        _read_only(self.processors)

    @property
    def phase(self) -> str:
        """The phase of the step, or of its branches joined by ``" | "``."""
        return " | ".join(dict.fromkeys(self.phases))

    @property
    def step_work(self) -> int:
        """Processors active in this step (its share of the work)."""
        return len(self.processors)

    @property
    def step_reads(self) -> int:
        """Cells read in this step."""
        return sum(len(a) for a in self.accesses if a.kind == "read")

    @property
    def step_writes(self) -> int:
        """Cells written in this step."""
        return sum(len(a) for a in self.accesses if a.kind == "write")


@attrs.frozen
class TracedArray:
    """An array as the trace first saw it: its label (the name, with ``#2`` and so on for a
    name allocated again after a free), size, contents and which cells were defined, the
    step after which it appeared (0: before the first) and the step after which it was freed."""

    name: str
    size: int
    values: Words = attrs.field(eq=False)
    defined: Flags | None = attrs.field(eq=False)
    since: int
    freed: int | None = None
    #: ``(size,)``, or ``(rows, columns)`` for a two-dimensional array (cells row-major).
    shape: tuple[int, ...] = ()


class Trace:
    """The steps a tracing machine executed (see the module's docstring), readable after a run.

    ``steps`` and ``arrays`` raise :class:`pram.HonestyError` while a program runs on the
    machine, like sealed memory. ``cells`` is what the trace holds, ``ceiling`` what it may.
    """

    __slots__ = ("_arrays", "_cells", "_sealed", "_steps", "ceiling", "model")

    def __init__(self, ceiling: int, model: str) -> None:
        if hasattr(self, "_sealed"):  # made again mid-run: unsealed, its steps readable
            raise HonestyError(
                "a trace is made once, by its machine; calling its __init__ again would "
                "unseal it mid-run; read m.trace after the run"
            )
        self.ceiling = ceiling
        self.model = model
        self._cells = 0
        self._sealed = False
        self._steps: list[TracedStep] = []
        self._arrays: dict[str, TracedArray] = {}

    def _refuse(self, what: str) -> NoReturn:
        raise HonestyError(
            f"reading the trace ({what}) while a program runs reaches the run outside the "
            "machine's steps; read m.trace after the run"
        )

    @property
    def sealed(self) -> bool:
        """Whether a program is running on the machine (the machine sets it; read-only here)."""
        return self._sealed

    @property
    def cells(self) -> int:
        """The cells recorded so far: a count of accesses, so it is sealed like the steps (under
        processors chosen by data it would count them)."""
        if self._sealed:
            self._refuse("cells")
        return self._cells

    @property
    def steps(self) -> tuple[TracedStep, ...]:
        """Every global step recorded, in order."""
        if self._sealed:
            self._refuse("steps")
        return tuple(self._steps)

    @property
    def arrays(self) -> dict[str, TracedArray]:
        """Every array the trace saw, by label, as it first saw it."""
        if self._sealed:
            self._refuse("arrays")
        return dict(self._arrays)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[TracedStep]:
        return iter(self.steps)

    def step(self, number: int) -> TracedStep:
        """Global step ``number`` (counted from 1, as the ledger and the conflict reports do)."""
        steps = self.steps
        first = steps[0].number if steps else 1
        if not steps or not first <= number < first + len(steps):
            span = f"steps {first} to {first + len(steps) - 1}" if steps else "no steps"
            raise InputError(f"step {number} is not in the trace, which holds {span}")
        return steps[number - first]

    def totals(self) -> dict[str, int]:
        """Time, work, reads and writes summed over the steps, and the rounds the steps are
        part of (equal to the ledger's counts for a machine traced from its first step)."""
        steps = self.steps
        return {
            "time": len(steps),
            "work": sum(s.step_work for s in steps),
            "reads": sum(s.step_reads for s in steps),
            "writes": sum(s.step_writes for s in steps),
            "rounds": len({s.rounds for s in steps}),
        }

    def as_dict(self) -> dict[str, Any]:
        """The trace as plain JSON data (lists of numbers), for pages and exports; each array
        carries its ``dtype`` (``"int64"`` or ``"float64"``) and ``shape`` (cells row-major)."""
        arrays = [
            {
                "name": a.name, "size": a.size, "since": a.since, "freed": a.freed,
                "dtype": a.values.dtype.name, "shape": list(a.shape or (a.size,)),
                "values": a.values.tolist(),
                "defined": None if a.defined is None else a.defined.astype(np.int8).tolist(),
            }
            for a in self.arrays.values()
        ]
        steps = []
        for s in self.steps:
            steps.append({
                "number": s.number, "phase": s.phase, "phases": list(s.phases),
                "processors": s.processors.tolist(),
                "time": s.time, "work": s.work, "reads": s.reads, "writes": s.writes,
                "rounds": s.rounds, "accesses": [_access_dict(a) for a in s.accesses],
                "conflicts": [_conflict_dict(v) for v in s.conflicts],
            })
        return {"model": self.model, "cells": self.cells, "ceiling": self.ceiling,
                "arrays": arrays, "steps": steps}

    def to_html(self, path: str) -> None:
        """Write the step-through page of this trace to ``path``: see
        :func:`pram.reports.trace_page.write`, which this calls through the viewer the
        installed distribution declares (so that ``pram`` imports nothing of the reports)."""
        _viewer("write")(self, path)

    def _repr_html_(self) -> str:
        """The step-through page, inline in a notebook."""
        return str(_viewer("inline")(self))

    def __rich__(self) -> str:
        return self.summary()

    def summary(self) -> str:
        """One line: steps, conflicts, cells recorded and the ceiling."""
        steps = self.steps
        conflicts = sum(len(s.conflicts) for s in steps)
        return (
            f"trace of {len(steps)} steps under {self.model}, {conflicts} conflicts, "
            f"{self.cells:,} cells recorded (ceiling {self.ceiling:,})"
        )

    def __repr__(self) -> str:
        if self.sealed:
            return "Trace(sealed while a program runs)"
        return f"Trace({self.summary()})"


def _viewer(name: str) -> Any:
    """The function ``name`` of the trace viewer the distribution declares (entry point group
    ``pram.viewers``), found at call time: the page is presentation, which lives above."""
    from importlib.metadata import entry_points

    for point in entry_points(group="pram.viewers", name=name):
        return point.load()
    raise InputError(
        "no trace viewer is installed; install pramsim (pip install -e .) so that "
        "pram.reports.trace_page is declared, or write the page with "
        "pram.reports.trace_page.write(trace, path)"
    )


def _access_dict(a: Access) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": a.kind, "array": a.array, "branch": a.branch,
        "processors": a.processors.tolist(), "cells": a.cells.tolist(),
        "values": a.values.tolist(),
    }
    if a.before is not None and a.after is not None:
        out["before"] = a.before.tolist()
        out["after"] = a.after.tolist()
    if a.defined is not None:
        out["defined"] = a.defined.astype(np.int64).tolist()
    return out


def _conflict_dict(v: Violation) -> dict[str, Any]:
    return {"kind": v.kind.value, "array": v.array, "index": v.index,
            "processors": list(v.processors), "values": list(v.values),
            "message": v.message}


class Recorder:
    """What the machine and its engine call while tracing; keeps the :class:`Trace`.

    The engine calls :meth:`begin` once a step's ports are validated (nothing read or written
    yet) and :meth:`end` once it is accounted; the machine calls :meth:`start` when a run
    begins and :meth:`allocated` and :meth:`freed` for arrays made or freed meanwhile.
    """

    __slots__ = ("_before", "_defined", "_labels", "_pending", "trace")

    def __init__(self, ceiling: int, model: str) -> None:
        self.trace = Trace(ceiling, model)
        self._labels: dict[int, str] = {}  # id of a live array -> its label
        self._pending: tuple[int, Sequence[Step], list[Port], int] | None = None
        self._before: list[Words] = []
        self._defined: list[Flags | None] = []

    # ---- arrays ------------------------------------------------------------------------

    def start(self, arrays: dict[str, Array], step: int) -> None:
        """A run begins: snapshot every array not seen yet (refused above the ceiling)."""
        new = [a for a in arrays.values() if id(a) not in self._labels]
        self._charge(sum(a.size for a in new), step + 1, "the arrays of the machine")
        for array in new:
            self._snapshot(array, step)

    def allocated(self, array: Array, step: int) -> None:
        """``array`` was allocated after global step ``step``."""
        self._charge(array.size, step + 1, f"array {array.name!r}")
        self._snapshot(array, step)

    def freed(self, array: Array, step: int) -> None:
        """``array`` was freed after global step ``step``."""
        label = self._labels.pop(id(array), None)
        if label is not None:
            self.trace._arrays[label] = attrs.evolve(self.trace._arrays[label], freed=step)

    def _snapshot(self, array: Array, step: int) -> None:
        label, k = array.name, 1
        while label in self.trace._arrays:
            k += 1
            label = f"{array.name}#{k}"
        self._labels[id(array)] = label
        defined = None if array.defined is None else array.defined.copy()
        self.trace._arrays[label] = TracedArray(
            label, array.size, _cells_of(array).copy(), defined, step, shape=array.shape
        )

    def _charge(self, cells: int, step: int, what: str, *, now: bool = True) -> None:
        """Refuse ``cells`` more above the ceiling; count them unless ``now`` is False (a
        step's accesses count once it completed: a step refused by the model records none)."""
        trace = self.trace
        if trace._cells + cells > trace.ceiling:
            raise TraceLimitError(
                f"the trace would hold {trace._cells + cells:,} cells before step {step} "
                f"({what} adds {cells:,}), beyond its ceiling of {trace.ceiling:,}; a whole "
                "run records its ledger's memory_cells + reads + writes, so run it untraced "
                "and give Machine(trace=True, trace_cells=...) at least that, or trace a "
                "smaller instance",
                trace._cells + cells, trace.ceiling, step,
            )
        if now:
            trace._cells += cells

    # ---- steps -------------------------------------------------------------------------

    def begin(self, number: int, steps: Sequence[Step], ports: list[Port],
              violations: int) -> None:
        """Step ``number`` is validated: refuse its accesses above the ceiling (before anything
        is read or written) and keep what the step reads and overwrites."""
        self._charge(sum(len(p.index) for p in ports), number, f"step {number}", now=False)
        self._pending = (number, steps, ports, violations)
        # Memory as every read of the step sees it, and as each write finds it: before.
        self._before = [_cells_of(port.array).take(port.index) for port in ports]
        flags = [_defined_of(port.array) for port in ports]
        self._defined = [None if known is None else known.take(port.index)
                         for port, known in zip(ports, flags, strict=True)]

    def end(self, cost: Cost, violations: list[Violation]) -> None:
        """The pending step was committed and accounted: record it."""
        assert self._pending is not None
        number, steps, ports, seen = self._pending
        self._pending = None
        self.trace._cells += sum(len(p.index) for p in ports)
        accesses = []
        for port, before, held in zip(ports, self._before, self._defined, strict=True):
            defined = None if held is None or bool(held.all()) else held.astype(bool)
            label = self._labels.get(id(port.array), port.array.name)
            pid = np.array(port.processors, dtype=np.int64)
            cells = port.index.copy()
            if port.value is None:
                accesses.append(Access("read", label, port.branch, pid, cells, before,
                                       defined=defined))
            else:
                written = np.broadcast_to(port.value, cells.shape).astype(port.array.dtype)
                after = _cells_of(port.array).take(cells)
                accesses.append(Access("write", label, port.branch, pid, cells, written,
                                       before, after, defined))
        processors = [processors_of(s, number).astype(np.int64) for s in steps]
        self.trace._steps.append(TracedStep(
            number, tuple(s.phase for s in steps),
            np.concatenate(processors) if processors else np.zeros(0, np.int64),
            tuple(accesses), tuple(violations[seen:]),
            cost.time, cost.work, cost.reads, cost.writes, cost.rounds,
        ))
