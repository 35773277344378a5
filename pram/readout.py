"""What a run leaves readable: the ledgers, the records of forbidden accesses and undefined
reads, each instance's result and the trace, all refused while a program runs.

:class:`Readout` is the part of :class:`pram.Machine` that answers these questions after a run
(a base class, so that the machine's own module is its front door: memory, processors, runs).
The machine's engine answers for its instances (:meth:`pram.engine.core.Engine.costs`), so no
answer here depends on how many instances the machine holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast, overload

from pram._held import cost_of as _cost_of
from pram._held import engine_of as _engine_of
from pram._held import ledger_of as _ledger_of
from pram._held import recorder_of as _recorder_of
from pram._held import resolutions_of as _resolutions_of
from pram._held import undefined_reads_of as _undefined_reads_of
from pram._held import violations_of as _violations_of
from pram.cost import Cost, counted
from pram.errors import HonestyError, InputError

if TYPE_CHECKING:
    from pram.trace import Trace
    from pram.violations import Resolution, UndefinedRead, Violation

__all__ = ["Readout"]

R = TypeVar("R")


class _Record(Generic[R]):
    """A record the runs leave on a machine (its violations, resolutions or undefined reads):
    the host reads a copy of it between runs, refused while a program runs, as the record
    tells about data. Only the machine's own steps keep it:
    a copy's ``clear()`` leaves the record as it was, and replacing it is refused, so that no
    code between a run and a check of it (``pram.testing.assert_erew``) makes a run that
    broke its model look clean."""

    def __init__(self, get: Callable[[object], list[R]], doc: str) -> None:
        self._get, self.__doc__ = get, doc
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, machine: None, owner: type | None = None) -> _Record[R]: ...

    @overload
    def __get__(self, machine: Readout, owner: type | None = None) -> list[R]: ...

    def __get__(self, machine: Readout | None, owner: type | None = None) -> Any:
        if machine is None:
            return self
        machine._closed(f"m.{self._name}")
        return list(self._get(machine))

    def __set__(self, machine: Readout, value: list[R]) -> None:
        raise HonestyError(
            f"m.{self._name} cannot be replaced: a machine's records are what its runs left "
            "(reset, a run that broke its model would look clean); make a new Machine to "
            "start afresh"
        )


class Readout:
    """The readouts of a machine after its runs (see :class:`pram.Machine`)."""

    _running: int
    _results: tuple[Any, ...]

    violations: _Record[Violation] = _Record(
        _violations_of,
        "Every forbidden access recorded (refused while a program runs: which processors met "
        "at a cell is data).")
    resolutions: _Record[Resolution] = _Record(
        _resolutions_of,
        "Cells CRCW tolerant, collision or collision+ settled without a written value; refused "
        "while a program runs (which cells collided is data).")
    undefined_reads: _Record[UndefinedRead] = _Record(
        _undefined_reads_of,
        "Every read of an undefined cell recorded (refused while a program runs).")

    def _closed(self, what: str) -> None:
        if self._running:
            raise HonestyError(
                f"{what} while a program runs tells the host about data outside the "
                "machine's steps; read it after the run"
            )

    @property
    def cost(self) -> Cost:
        """The ledger: read-only (a :class:`pram.cost.Ledger` view) while a program runs.

        A batched machine keeps one ledger per instance (:attr:`costs`); its ``m.cost`` is
        that ledger when it is the same for every instance (before any run, with
        ``batch=1``, or after a program whose counts do not depend on data), and refused with
        the fix otherwise (while a program runs it shows time and sizes, as on one machine).
        """
        if self._running:
            return cast(Cost, _ledger_of(self))
        return counted(_engine_of(self).cost(_cost_of(self)))

    @cost.setter
    def cost(self, cost: Cost) -> None:
        if self._running:
            raise HonestyError(
                "m.cost = ... while a program runs replaces the ledger; only the machine "
                "counts: run steps, and read m.cost after the run"
            )
        raise HonestyError(
            "m.cost = ... after a run replaces the ledger; only the machine counts: make a "
            "fresh Machine to count afresh, or take m.cost.fresh() for numbers of your own"
        )

    @property
    def costs(self) -> tuple[Cost, ...]:
        """One ledger per instance: the machine's own on a single machine, one
        :class:`pram.Cost` per instance on a batched one (each equal to a single run's on the
        instance's input); refused while a program runs."""
        self._closed("m.costs")
        return tuple(counted(cost) for cost in _engine_of(self).costs(_cost_of(self)))

    @property
    def results(self) -> tuple[Any, ...]:
        """What the last :meth:`run`'s program returned, one value per instance: on a single
        machine a 1-tuple of what :meth:`run` returned; on a batched one the value returned
        by the pass that ran each instance (:mod:`pram.engine.passes`: instances whose loop
        tests answered alike share a pass; :meth:`run` returns registers put together row by row
        from the passes). A value computed from registers holds one row per instance: read
        instance ``i``'s row ``i``. Empty before the first run; refused while a program
        runs."""
        self._closed("m.results")
        return self._results

    @property
    def trace(self) -> Trace:
        """What the machine traced (``Machine(trace=True)``); refused while a program runs."""
        if self._running:  # first: whether the machine traces is not the program's to learn
            raise HonestyError(
                "m.trace while a program runs reads the run outside the machine's steps; "
                "read m.trace after the run"
            )
        recorder = _recorder_of(self)
        if recorder is None:
            raise InputError(
                "this machine keeps no trace; make it with Machine(trace=True) before the run"
            )
        return recorder.trace
