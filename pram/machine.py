"""The machine: shared memory, processors, programs run step by step, and the ledger.

:class:`Machine` is the front door: allocate and free arrays, hand out processor ids, run
programs, read the ledger. Each global step a program yields is executed by a private engine
(:mod:`pram.engine.core`) as *evaluate, then commit*: every read sees memory as it was before the
step, every write is applied together at its end after the access model has resolved
concurrent writers, and the ledger is charged. What a step may hold is validated at the
boundary (:mod:`pram.engine.validate`); who met at a cell, and which write lands, is decided in
:mod:`pram.engine.conflicts`.

The usual global step (no masks, ascending indices, parallel branches on disjoint ranges of
processors) takes the engine's *fast path*: the first branch of each test the general path
runs, and nothing else. ``Machine(fast_path=False)`` turns it off; no result changes (the
replies, memory, ledger, verdicts and errors are the same either way), only which tests run.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal, TypeVar, cast

from pram._held import HeldRecord
from pram._held import cost_of as _cost_of
from pram._held import depths_of as _depths_of
from pram._held import engine_of as _engine_of
from pram._held import put_cost as _put_cost
from pram._held import put_depths as _put_depths
from pram._held import put_engine as _put_engine
from pram._held import put_failure as _put_failure
from pram._held import put_ledger as _put_ledger
from pram._held import put_recorder as _put_recorder
from pram._held import put_resolutions as _put_resolutions
from pram._held import put_undefined_reads as _put_undefined_reads
from pram._held import put_violations as _put_violations
from pram._held import recorder_of as _recorder_of
from pram._numpy import np
from pram.allocation import allocation, unused
from pram.cost import Cost, Ledger
from pram.depth import Depths
from pram.display import MachineDisplay
from pram.engine import driver
from pram.engine import instances as _instances
from pram.engine.core import Engine
from pram.engine.heap import keep_large_blocks
from pram.engine.memo import handed_out
from pram.engine.refusals import MAX_ACCESSES
from pram.errors import HonestyError, InputError
from pram.final import Final
from pram.memory import Array, Words, dtype_of
from pram.models import Model, model
from pram.readout import Readout
from pram.run import Observer, Run, machine_made, machine_used
from pram.settings import assigned, seed_of, switch, trace_cells_of
from pram.step import Program, Step, Values
from pram.trace import CEILING, Recorder

__all__ = ["MAX_ACCESSES", "Machine"]

T = TypeVar("T")


#: The settings fixed once the machine is made, with the refusal of changing each.
_FIXED = {"batch": _instances.RESIZED}


class Machine(HeldRecord, MachineDisplay, Readout, metaclass=Final):
    """A PRAM: allocate arrays, then :meth:`run` programs on them.

    ``model`` is an access model name (``"erew"``, the default, ``"crew"``, ``"crcw-common"``,
    ``"crcw-arbitrary"``, ``"crcw-priority"``, ``"crcw-sum"``, ``"crcw-max"``, ``"crcw-min"``,
    ``"ercw"``, ``"crcw-weak"``, ``"crcw-tolerant"``, ``"crcw-collision"``,
    ``"crcw-collision+"``; see :data:`pram.MODELS`).
    ``mode="collect"`` records every violation and finishes the run; ``mode="raise"`` raises
    :class:`ConflictError` at the first. ``strict`` makes undefined reads an error instead of
    a record. A processor id listed twice in one global step (in one step or in two
    parallel branches) is refused with a :class:`StepError`: two logical processors sharing
    an id would hide their conflicts from each other, and one id listed n times would fold n
    values in one step (an n-way OR on EREW, no violation). ``distinct_processors`` is that
    check, always on: it costs nothing for the ids :meth:`processors` hands out, and
    otherwise one scatter and one gather per step over a table sized by the spread of the
    step's ids; ``distinct_processors=False`` is refused with an :class:`InputError`.
    ``observer`` (also settable as ``m.observer`` before a run) sees every global step and
    every elementwise operation on registers.

    ``fast_path`` (on by default) lets the usual step (no ``where`` masks, ascending indices
    in range, parallel branches on disjoint ranges of processors, no two processors at one
    cell, no undefined cell read) run with only the first-branch tests of the general path;
    ``fast_path=False`` sends every step through the general path. It never changes a
    result (replies, memory, ledger, violations, errors), only how fast they come: it is there
    to compare the two paths, as tests/test_fast_path.py does.

    ``trace=True`` records every global step in :attr:`trace` (:mod:`pram.trace`): cells read
    and written, values, conflicts and the ledger after each step, at most ``trace_cells``
    cells recorded (a refusal above them). Tracing changes no count; its steps all take the
    general path.

    ``depth=True`` records the dependency depth of every cell written, the step that made
    it and its critical chain, in :attr:`depths` (:mod:`pram.depth`); it changes no count, and
    off (the default) it costs one test per run. A batched machine refuses it.

    ``batch=B`` makes a batched machine (:mod:`pram.engine.instances`): B instances of one program
    run in lockstep, one numpy pass per step for all of them. Every array holds one row of cells
    per instance (``values`` of shape ``(B, size)``, or ``(size,)`` for the same in each),
    registers one row per instance, and :attr:`costs` one ledger per instance, each equal to a
    single run's on the instance's input; violations, resolutions and undefined reads carry
    their ``instance``. Instances whose loop tests answer differently run in passes of their
    own, from the run's start (:mod:`pram.engine.instances`); :attr:`results` gives each
    instance's answer. ``batch=None`` (the default) is the single machine.

    While a program runs, its reads return :class:`pram.registers.Register` objects bound to
    the step's processors and to the run's token (:mod:`pram.run`), the arrays are sealed (no
    ``to_numpy``, ``values`` or ``defined``), ``violations``, ``undefined_reads``, a nested
    :meth:`run` and :meth:`execute` are refused, and ``m.cost`` shows time and sizes only:
    only the machine counts.

    >>> import numpy as np
    >>> from pram import Machine, Read, Step, Write, iota
    >>> m = Machine()
    >>> a = m.array("a", values=np.array([1, 2]))
    >>> def swap(m, a):
    ...     pid = m.processors(2)
    ...     i = iota(2)  # each processor's rank: cells by rank, never by id
    ...     x, = yield Step(pid, reads=[Read(a, i)])
    ...     yield Step(pid, writes=[Write(a, 1 - i, x)])
    >>> m.run(swap(m, a)); a.to_numpy().tolist(), m.cost.time, m.cost.work
    ([2, 1], 2, 4)
    """

    def __init__(
        self,
        model_name: str | Model = "erew",
        *,
        mode: Literal["collect", "raise"] = "collect",
        strict: bool = True,
        seed: int = 0,
        distinct_processors: bool = True,
        observer: Observer | None = None,
        fast_path: bool = True,
        trace: bool = False,
        trace_cells: int = CEILING,
        batch: int | None = None,
        depth: bool = False,
    ) -> None:
        # trace="no" would be truthy (a trace); the settings are checked as they are set
        trace, depth = switch("trace", trace), switch("depth", depth)
        instances = _instances.instances(batch, trace, depth)
        keep_large_blocks()  # steps' temporaries reused, not mapped afresh (pram.engine.heap)
        seed = seed_of(seed)
        trace_cells = trace_cells_of(trace_cells)
        self.model = model(model_name)
        _put_recorder(self, Recorder(trace_cells, self.model.name) if trace else None)
        #: The depth of every cell (pram.depth), recorded while depth=True, else None.
        _put_depths(self, Depths() if depth else None)
        self.mode = mode
        self.strict = strict
        self.distinct_processors = distinct_processors
        self.fast_path = fast_path
        _put_cost(self, Cost())
        _put_ledger(self, Ledger(_cost_of(self)))
        self._running = 0
        #: The token of the run in progress (see pram.run), None between runs.
        self._token: Run | None = None
        self.observer = observer
        _put_violations(self, [])
        #: Cells CRCW tolerant, collision or collision+ settled without a written value.
        _put_resolutions(self, [])
        _put_undefined_reads(self, [])
        self.arrays: dict[str, Array] = {}
        self._seed = seed
        self._next_processor = 0
        self._alive_cells = 0
        #: The arrays allocated inside each open :meth:`scope`, innermost last.
        self._scopes: list[list[Array]] = []
        #: The first error of the run in progress that the program must not see (an int64
        #: overflow): raised by the machine before its next step, or as the run ends.
        _put_failure(self, None)
        #: How many :func:`pram.modular` programs are executing now (their int64 arithmetic
        #: wraps instead of failing the run).
        self._modular = 0
        #: The instances of a batched machine (``Machine(batch=B)``), None for a single one.
        self.batch: int | None = instances
        #: What executes the steps, for one instance or for ``batch`` of them.
        _put_engine(self, Engine(self, instances))
        #: What the last run's program returned, one per instance (see :attr:`results`).
        self._results: tuple[Any, ...] = ()
        machine_made(self)  # a measured call (pram.sweep, a declaration) sees every machine

    @property
    def depths(self) -> Depths:
        """The depth of every cell the runs wrote (:mod:`pram.depth`), on a machine made with
        ``depth=True``; what it tells is refused while a program runs (a depth may tell about
        data)."""
        depths = _depths_of(self)
        if depths is None:
            raise InputError(
                "this machine records no depths; make it with Machine(depth=True)")
        return depths

    # ---- memory and processors -------------------------------------------------------------

    def array(
        self,
        name: str,
        size: int | None = None,
        values: Any = None,
        *,
        dtype: Any = None,
        shape: tuple[int, int] | None = None,
    ) -> Array:
        """Allocate a named array: ``size`` undefined cells, or a copy of ``values``.

        ``dtype`` is ``int`` (int64 words, the default) or ``float`` (float64 reals; also
        ``np.float64`` or ``"float64"``). ``shape=(r, c)`` (or ``values`` of two dimensions)
        makes a two-dimensional array of ``r * c`` cells, row-major, which steps address by
        pairs: ``Read(A, (i, j))``. Reals given for an int64 array are refused: pass
        ``dtype=float``, or round them explicitly (``np.rint(x).astype(np.int64)``).
        """
        name = unused(name, self.arrays)
        cells, defined, dimensions = allocation(name, size, values, dtype_of(dtype, name),
                                                shape, self.batch)
        array = _engine_of(self).allocated(name, Array(name, cells, defined, dimensions))
        recorder = _recorder_of(self)
        if recorder is not None:
            recorder.allocated(array, _cost_of(self).time)
        self.arrays[name] = array
        _cost_of(self).memory_cells += array.size
        array._sealed = self._running > 0
        self._alive_cells += array.size
        _cost_of(self).peak_cells = max(_cost_of(self).peak_cells, self._alive_cells)
        for scope in self._scopes:
            scope.append(array)
        return array

    @contextmanager
    def scope(self) -> Iterator[None]:
        """Free, when the block ends, every array allocated inside it (by the host or by a
        program run inside it) and not freed already: a program's scratch arrays, so that the
        program can run again on the same machine.

        Copy what you need out with :meth:`Array.to_numpy` inside the block. Scopes nest.

        >>> m = Machine()
        >>> with m.scope():
        ...     t = m.array("t", values=[1, 2])
        ...     kept = t.to_numpy()
        >>> "t" in m.arrays, kept.tolist()
        (False, [1, 2])
        """
        mine: list[Array] = []
        self._scopes.append(mine)
        try:
            yield
        finally:
            self._scopes.remove(mine)
            for array in reversed(mine):
                if self.arrays.get(array.name) is array:
                    self.free(array)

    def free(self, array: Array) -> None:
        """Release ``array`` once no later step needs it: its cells stop counting as alive.

        The ledger's ``memory_cells`` still counts them (cells ever allocated); ``peak_cells``
        is the most cells alive at once. The name may be allocated again; any later access to
        ``array`` is refused, and so is :meth:`Array.to_numpy`.
        """
        if not isinstance(array, Array) or self.arrays.get(array.name) is not array:
            raise InputError(
                f"free takes an array allocated on this machine and not yet freed "
                f"(got {array!r})"
            )
        del self.arrays[array.name]
        recorder = _recorder_of(self)
        if recorder is not None:
            recorder.freed(array, _cost_of(self).time)
        array._freed = True
        array._sealed = False  # a freed array is refused as freed, during a run or after
        _engine_of(self).release(array)
        self._alive_cells -= array.size

    def processors(self, n: int) -> Words:
        """``n`` fresh processor ids, distinct from every id handed out before on this machine."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise InputError(f"number of processors must be a non-negative integer (got {n!r})")
        first = self._next_processor
        try:
            # In immutable memory: registers are bound to these ids, and a step listing
            # exactly them needs no test that they are distinct (pram.engine.memo.ascending).
            ids = handed_out(first, int(n))
        except (MemoryError, ValueError, OverflowError):  # too many to hold: an input
            raise InputError(f"{int(n):,} processors cannot be allocated on this machine; "
                             "ask for fewer") from None
        self._next_processor += int(n)
        return ids

    def __setattr__(self, name: str, value: Any) -> None:
        """Refuse changing the machine's rules (its model, mode, strictness, checks, observer)
        while a program runs: an EREW program that switches to CRCW-sum for one step would
        sum in one step and record no violation. Set them before :meth:`run`. ``batch`` is
        fixed when the machine is made (its arrays and ledgers hold that many instances)."""
        object.__setattr__(self, name, assigned(name, value, self.__dict__, _FIXED,
                                                hasattr(type(self), name)))

    # ---- running programs ------------------------------------------------------------------

    def run(self, program: Program[T]) -> T:
        """Drive ``program`` to its end, one global step per request; return its result.

        While it runs, memory is sealed and the ledger's data-dependent parts refuse; every
        register belongs to the run's token (:class:`pram.run.Run`), which counts the local
        work charged before each step and at the end, and tells the observer, if any, of
        every global step after it executed. A run inside a running program is refused.

        On a batched machine the run takes one pass per distinct sequence of loop-test answers
        among the instances (one when they agree), each later pass ``program`` made again from
        the start with only its instances: see :mod:`pram.engine.instances` for what a pass can
        and cannot make again, and :attr:`results` for every instance's value (registers
        returned are put together row by row from the passes).
        """
        if not isinstance(program, Generator):
            raise InputError(
                f"program must be a generator, the result of calling a program function "
                f"(got {type(program).__name__}); call it, e.g. "
                "m.run(swap(m, a)) rather than m.run(swap)"
            )
        if self._running:
            raise HonestyError(
                "Machine.run of a machine whose program is running would answer questions "
                "about data outside the run's steps; compose programs with yield from"
            )
        machine_used(self)  # a measured call refuses a run on a machine it did not measure
        return cast(T, driver.run(self, program))

    def execute(self, steps: Sequence[Step]) -> list[Values]:
        """Execute one global step made of ``steps`` (one per parallel branch).

        Returns, for each step, the values its reads returned. In ``mode="raise"`` a forbidden
        access raises :class:`ConflictError` before anything is read or written, so memory and
        the ledger are left as they were before the step. Refused while a program runs on
        this machine (a program yields its steps; it does not execute them).
        """
        if self._running:
            raise HonestyError(
                "Machine.execute while a program runs on the machine is a step outside the "
                "program's steps; yield the Step instead"
            )
        machine_used(self)
        return _engine_of(self).execute(steps)

