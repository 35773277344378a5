"""Where a register's raw values and an array's cells live: slots no attribute path reaches.

A :class:`pram.Register` keeps one value per processor. Were they an attribute
(``x._values``), any code that names attributes without calling anything could read them
mid-run: a format string (``"{0._values}".format(x)``, ``string.Formatter().get_field``),
``operator.attrgetter``, ``getattr`` with a computed name. So they sit in a slot of
:class:`Held` (the base of :class:`pram.Register`) whose descriptor is taken off the class
when this module is imported: the slot is still there, but no name leads to it, and only
:func:`raw_of` and :func:`put_raw` (the descriptor's own ``__get__`` and ``__set__``, kept here)
read and write it. The machine and the register's own methods use them; a program cannot
without importing this private module, which ``pram lint`` flags. An array's cells
(:class:`pram.Array`, and the engine's views of one instance's row) sit likewise in the slot
of :class:`HeldCells`, read and written by :func:`cells_of` and :func:`put_cells`, so
``"{0._cells}".format(a)`` finds nothing while the array is sealed either. A machine's ledger,
records, engine and recorders sit likewise in the slots of :class:`HeldRecord`, so
``"{0._cost.work}".format(m)`` finds nothing mid-run. Every other module of pram holds these
accessors under private names only (``from pram._held import raw_of as _raw_of``), so no
public attribute path (``pram.trace.cells_of``) leads to them either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram.errors import HonestyError, PRAMError

if TYPE_CHECKING:
    from pram.cost import Cost, Ledger
    from pram.depth import Depths
    from pram.engine.core import Engine
    from pram.registers.ids import Chosen, Ids
    from pram.trace import Recorder
    from pram.violations import Resolution, UndefinedRead, Violation


class Held:
    """The base of :class:`pram.Register`: slots for the raw values, the ids of the
    processors they belong to and the processors the register selects as a mask (both data
    once processors chose themselves: a mask, their number), reached by no name."""

    __slots__ = ("_processors", "_selections", "_values")


_SLOT: Any = Held.__dict__["_values"]
_IDS: Any = Held.__dict__["_processors"]
_SELECTIONS: Any = Held.__dict__["_selections"]
#: The raw values of a register (``raw_of(x)``), for the machine only.
raw_of: Callable[[Held], npt.NDArray[Any]] = _SLOT.__get__
#: Set the raw values of a register (``put_raw(x, values)``), for the machine only.
put_raw: Callable[[Held, npt.NDArray[Any]], None] = _SLOT.__set__
#: The ids of the processors a register belongs to (``owners_of(x)``), for the machine only.
owners_of: Callable[[Held], Ids] = _IDS.__get__
#: Set the ids of a register's processors (``put_owners(x, ids)``).
put_owners: Callable[[Held, Ids], None] = _IDS.__set__
#: The processors a register selects when it is the mask (``selections_of(x)``).
selections_of: Callable[[Held], Chosen | None] = _SELECTIONS.__get__
#: Set (or forget, with None) the processors a register selects as a mask.
put_selections: Callable[[Held, Chosen | None], None] = _SELECTIONS.__set__
del Held._values, Held._processors, Held._selections  # type: ignore[attr-defined]


class HeldCells:
    """The base of :class:`pram.Array` (and of the engine's views of its rows): slots for
    the cells and for the flags of which cells hold a value (None: all of them; which
    cells a program wrote is data), reached by no name."""

    __slots__ = ("_cells", "_defined")


_CELLS: Any = HeldCells.__dict__["_cells"]
_DEFINED: Any = HeldCells.__dict__["_defined"]
#: The cells of an array (``cells_of(a)``), for the machine only.
cells_of: Callable[[HeldCells], npt.NDArray[Any]] = _CELLS.__get__
#: Set the cells of an array (``put_cells(a, cells)``), for the machine only.
put_cells: Callable[[HeldCells, Any], None] = _CELLS.__set__
#: Which cells of an array hold a value (``defined_of(a)``; None: all), for the machine only.
defined_of: Callable[[HeldCells], npt.NDArray[Any] | None] = _DEFINED.__get__
#: Set which cells of an array hold a value (``put_defined(a, flags)``).
put_defined: Callable[[HeldCells, npt.NDArray[Any] | None], None] = _DEFINED.__set__
del HeldCells._cells, HeldCells._defined  # type: ignore[attr-defined]


class HeldRecord:
    """The base of :class:`pram.Machine`: slots for its ledger (a :class:`pram.Cost`), the
    read-only view of it a running program gets (:class:`pram.cost.Ledger`), its records
    of violations, resolutions and undefined reads, its engine (a batch's ledgers), its trace
    and depth recorders and the failure a run keeps from its program, reached by no name.
    As attributes, a format string read a run's work mid-run
    (``"{0._cost.work}".format(m)``: how many processors chose themselves by data, with no
    step) and ``string.Formatter().get_field`` handed the program the ledger itself, to
    rewrite; now only the machine's accessors below reach them, and ``m.cost``,
    ``m.violations`` and the rest refuse while a program runs. A machine is neither pickled
    nor copied (its ledger would be dropped or carried outside its runs)."""

    __slots__ = ("_cost", "_depths", "_engine", "_failure", "_ledger", "_recorder", "_resolutions",
                 "_undefined_reads", "_violations")

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise HonestyError(
            "pickling or copying a Machine would drop or carry its ledger and records outside "
            "its runs; make a fresh Machine and run the program on it")


class HeldCost:
    """The base of :class:`pram.cost.Ledger`: a slot for the :class:`pram.Cost` it views,
    reached by no name (``"{0.cost._cost.work}".format(m)`` mid-run finds nothing)."""

    __slots__ = ("_cost",)


_RECORD: dict[str, Any] = dict(HeldRecord.__dict__)
_VIEWED: Any = HeldCost.__dict__["_cost"]
#: A machine's ledger (``cost_of(m)``), for the machine only.
cost_of: Callable[[object], Cost] = _RECORD["_cost"].__get__
#: Set a machine's ledger (``put_cost(m, cost)``).
put_cost: Callable[[object, Cost], None] = _RECORD["_cost"].__set__
#: The read-only view of the ledger a running program gets as ``m.cost``.
ledger_of: Callable[[object], Ledger] = _RECORD["_ledger"].__get__
put_ledger: Callable[[object, Ledger], None] = _RECORD["_ledger"].__set__
#: A machine's records of forbidden accesses, of settled cells and of undefined reads.
violations_of: Callable[[object], list[Violation]] = _RECORD["_violations"].__get__
put_violations: Callable[[object, list[Violation]], None] = _RECORD["_violations"].__set__
resolutions_of: Callable[[object], list[Resolution]] = _RECORD["_resolutions"].__get__
put_resolutions: Callable[[object, list[Resolution]], None] = (
    _RECORD["_resolutions"].__set__)
undefined_reads_of: Callable[[object], list[UndefinedRead]] = (
    _RECORD["_undefined_reads"].__get__)
put_undefined_reads: Callable[[object, list[UndefinedRead]], None] = (
    _RECORD["_undefined_reads"].__set__)
#: What executes a machine's steps (a batch's ledgers in it), its trace recorder, its depths,
#: and the first failure of the run in progress (an int64 overflow the program must not see).
engine_of: Callable[[object], Engine] = _RECORD["_engine"].__get__
put_engine: Callable[[object, Engine], None] = _RECORD["_engine"].__set__
recorder_of: Callable[[object], Recorder | None] = _RECORD["_recorder"].__get__
put_recorder: Callable[[object, Recorder | None], None] = _RECORD["_recorder"].__set__
depths_of: Callable[[object], Depths | None] = _RECORD["_depths"].__get__
put_depths: Callable[[object, Depths | None], None] = _RECORD["_depths"].__set__
failure_of: Callable[[object], PRAMError | None] = _RECORD["_failure"].__get__
put_failure: Callable[[object, PRAMError | None], None] = _RECORD["_failure"].__set__


def engine_or_none(machine: object, _engine_of: Any = engine_of) -> Engine | None:
    """The engine of ``machine`` (a run's machine), or None for anything that holds none."""
    try:
        return _engine_of(machine)  # type: ignore[no-any-return]
    except (AttributeError, TypeError):
        return None


#: The ledger a :class:`pram.cost.Ledger` views (``viewed_of(view)``), and setting it.
viewed_of: Callable[[HeldCost], Cost] = _VIEWED.__get__
put_viewed: Callable[[HeldCost, Cost], None] = _VIEWED.__set__
for _name in HeldRecord.__slots__:
    delattr(HeldRecord, _name)
del _name
del HeldCost._cost  # type: ignore[attr-defined]

__all__ = ["Held", "HeldCells", "HeldCost", "HeldRecord", "cells_of", "cost_of", "defined_of",
           "depths_of", "engine_of", "engine_or_none", "failure_of", "ledger_of", "owners_of",
           "put_cells", "put_cost", "put_defined", "put_depths", "put_engine", "put_failure",
           "put_ledger", "put_owners", "put_raw", "put_recorder", "put_resolutions",
           "put_selections", "put_undefined_reads", "put_viewed", "put_violations", "raw_of",
           "recorder_of", "resolutions_of", "selections_of", "undefined_reads_of", "viewed_of",
           "violations_of"]

#: The accessors, by name (what :func:`seal` takes off this module, and what ``pram lint``
#: flags by name).
ACCESSORS = tuple(name for name in __all__ if not name.startswith("Held"))


def seal() -> None:
    """Take every accessor, and the descriptors they come from, off this module, once each
    module of pram that uses one holds it under a private name of its own: ``pram``'s
    ``__init__`` calls this last, after every such module is imported. Then no attribute path
    leads to them from here, not ``pram._held.raw_of`` nor ``sys.modules["pram._held"]``,
    ``importlib`` or ``pydoc.locate`` (a reload makes new slots that fit no live object)."""
    namespace = globals()
    for name in (*ACCESSORS, "_SLOT", "_IDS", "_SELECTIONS", "_CELLS", "_DEFINED", "_RECORD",
                 "_VIEWED"):
        namespace.pop(name, None)
