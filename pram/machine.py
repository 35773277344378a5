"""The machine: shared memory, synchronous steps checked against an access model, and a ledger.

A step is executed as *evaluate, then commit*: every read sees memory as it was before the step,
every write is applied together at its end after the model has resolved concurrent writers.
Work is vectorised across processors with numpy, so Python cost is paid per step and per
access port, never per processor. The usual global step (no masks, ascending indices, parallel
branches on processors apart) is recognised first and runs with only the tests that prove it
plain (:meth:`Machine._plain`); every other step takes the general path described next.

The numpy passes over a port's processors in a conflict-free step, each one needed:
the order test (one comparison of neighbours and one count, at most once per array object in
a step: ascending indices are in range when their first and last are, and are distinct); the
bounds check of indices out of order (one argmax; ports of at most 24 cells are checked in
Python instead); the conflict check (one scatter of seats per port, one gather and one
comparison for each port but the last; only for the ports the model checks, none for a lone
ascending port or ascending ports whose ranges lie apart, and a Python dict for at most 24
accesses to an array); the read (one gather) or the write (one scatter); and, with a
``where`` mask, one compression each of the indices, the values written and the seats
checked, plus the read's expansion. Once per global step, the check that no processor is
listed twice (on by default) costs nothing for the ids :meth:`Machine.processors` handed out
(immutable and ascending), the order test for other ascending ids, and otherwise one scatter,
one gather and one comparison of seats (a Python set for at most 24 processors). Only a step
in which two processors meet at a cell pays for the slow path, which sorts that array's
accesses to name every violation and resolve the writes, still without a loop per cell.
"""

from __future__ import annotations

import weakref
from collections.abc import Generator, Sequence
from itertools import pairwise
from typing import Any, Literal, TypeVar, cast

import numpy as np

from pram.cost import Cost, Ledger, PhaseCost, charge
from pram.errors import (
    AddressError,
    ConflictError,
    HonestyError,
    InputError,
    StepError,
    UndefinedReadError,
)
from pram.holding import run_of
from pram.ids import Chosen, freeze, same_processors
from pram.memory import Array, Flags, Seats, Words, words, zeros
from pram.models import Model, model
from pram.registers import THROUGH_MEMORY, Register
from pram.run import Observer, Run, _begin, _end
from pram.step import Bundle, Program, Read, Step, Values, Write
from pram.violations import Kind, UndefinedRead, Violation, when

T = TypeVar("T")

#: Accesses of one kind a processor may make in one step: the "small constant" of the model.
MAX_ACCESSES = 8

_INT64_MIN = int(np.iinfo(np.int64).min)
_INT64_MAX = int(np.iinfo(np.int64).max)
#: The dtype of a machine word (numpy's int64 dtype is one object).
_WORD = np.dtype(np.int64)

#: Seats (positions of processors in a global step) must fit the 32-bit marks.
_SEATS_MAX = int(np.iinfo(np.int32).max)

#: Below this many checked accesses per array, duplicates are found with a Python set.
_SMALL = 24

#: The processor check's marks cover a span of ids of at most this many, or 4 per processor
#: of the step if that is more (4 bytes each): its memory follows the steps, not the ids ever
#: handed out. Steps whose ids spread wider are sorted instead.
_MARKS_FLOOR = 1 << 23


class _Access:
    """One read or write port of one step, its indices compressed to the processors acting."""

    __slots__ = (
        "array", "ascending", "branch", "index", "is_write", "seat", "step", "value", "where"
    )

    def __init__(
        self,
        step: Step,
        branch: int,
        seat: int,
        array: Array,
        index: Words,
        where: Flags | None,
        value: Words | None,
    ) -> None:
        self.step = step
        self.branch = branch
        #: The seat of the step's first processor: see :meth:`Machine._seats_of`.
        self.seat = seat
        self.array = array
        self.index = index
        self.where = where
        self.value = value
        self.is_write = value is not None
        #: Whether the indices are known to be strictly ascending (so all distinct).
        self.ascending = False

    @property
    def processors(self) -> Words:
        """The ids of the processors that make this access (for the checks that need them)."""
        pid = cast(Words, self.step.processors)  # plain ids once the machine runs a step
        return pid if self.where is None else pid[self.where]


class Machine:
    """A PRAM: allocate arrays, then :meth:`run` programs on them.

    ``model`` is an access model name (``"erew"``, the default, ``"crew"``, ``"crcw-common"``,
    ``"crcw-arbitrary"``, ``"crcw-priority"``, ``"crcw-sum"``, ``"crcw-max"``, ``"crcw-min"``).
    ``mode="collect"`` records every violation and finishes the run; ``mode="raise"`` raises
    :class:`ConflictError` at the first. ``strict`` makes undefined reads an error instead of
    a record. ``seed`` drives the CRCW-arbitrary choice. ``distinct_processors`` (on by
    default) refuses a processor id listed twice in one global step (in one step or in two
    parallel branches) with a :class:`StepError`: such a processor would be counted once per
    listing in the work, and two logical processors sharing an id would hide their conflicts
    from each other. It costs one scatter and one gather per step, over marks sized by the
    spread of the step's ids (not by the ids ever handed out); pass
    ``distinct_processors=False`` to skip it. ``observer`` (also settable as ``m.observer``
    before a run) sees every global step and every elementwise operation on registers.

    While a program runs, its reads return :class:`pram.registers.Register` objects bound to
    the step's processors, the arrays are sealed (no ``to_numpy``, no ``values``) and ``m.cost``
    is read-only: only the machine counts.

    >>> import numpy as np
    >>> from pram import Machine, Read, Step, Write
    >>> m = Machine()
    >>> a = m.array("a", values=np.array([1, 2]))
    >>> def swap(m, a):
    ...     pid = m.processors(2)
    ...     x, = yield Step(pid, reads=[Read(a, pid)])
    ...     yield Step(pid, writes=[Write(a, 1 - pid, x)])
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
    ) -> None:
        if mode not in ("collect", "raise"):
            raise InputError(f"mode must be 'collect' or 'raise' (got {mode!r})")
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise InputError(f"seed must be a non-negative integer (got {seed!r})")
        self.model = model(model_name)
        self.mode = mode
        self.strict = strict
        self.distinct_processors = distinct_processors
        self._cost = Cost()
        self._ledger = Ledger(self._cost)
        self._running = 0
        #: The token of the run in progress (see pram.run), None between runs.
        self._token: Run | None = None
        self.observer = observer
        self._violations: list[Violation] = []
        self._undefined_reads: list[UndefinedRead] = []
        self.arrays: dict[str, Array] = {}
        self._seed = seed
        self._random: np.random.Generator | None = None  # made at the first CRCW-arbitrary choice
        self._next_processor = 0
        self._prefixes: dict[str, tuple[str, ...]] = {}
        self._seat_range: Seats = np.zeros(0, dtype=np.int32)
        # Scratch of the processor check and of every array's conflict check, one at a time.
        self._scratch: Seats = np.zeros(0, dtype=np.int32)
        self._alive_cells = 0

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
            cells = zeros(int(size), np.int64)
            defined: Flags | None = zeros(int(size), np.bool_)
        else:
            cells = words(values, f"values of array {name!r}")
            if size is not None and size != len(cells):
                raise InputError(
                    f"size of array {name!r} is {size} but {len(cells)} values were given; "
                    "pass one of them"
                )
            defined = None
        array = Array(name, cells, defined)
        self.arrays[name] = array
        self._cost.memory_cells += array.size
        array._sealed = self._running > 0
        self._alive_cells += array.size
        self._cost.peak_cells = max(self._cost.peak_cells, self._alive_cells)
        return array

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
        array.freed = True
        array._sealed = False  # a freed array is refused as freed, during a run or after
        array._cells = np.zeros(0, dtype=np.int64)
        array._defined = None
        self._alive_cells -= array.size

    def processors(self, n: int) -> Words:
        """``n`` fresh processor ids, distinct from every id handed out before on this machine."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise InputError(f"number of processors must be a non-negative integer (got {n!r})")
        first = self._next_processor
        self._next_processor += int(n)
        # In immutable memory: registers are bound to these ids, and a step listing exactly
        # them needs no test that they are distinct (see _ascending).
        memory = _Ids(np.arange(first, first + int(n), dtype=np.int64).tobytes())
        ids: Words = np.frombuffer(memory, dtype=np.int64)
        memory.handed_out = weakref.ref(ids)
        return ids

    # ---- running programs ------------------------------------------------------------------

    @property
    def violations(self) -> list[Violation]:
        """Every forbidden access recorded (refused while a program runs: which processors
        met at a cell is data)."""
        self._closed("m.violations")
        return self._violations

    @violations.setter
    def violations(self, value: list[Violation]) -> None:
        self._closed("m.violations = ...")
        self._violations = value

    @property
    def undefined_reads(self) -> list[UndefinedRead]:
        """Every read of an undefined cell recorded (refused while a program runs)."""
        self._closed("m.undefined_reads")
        return self._undefined_reads

    @undefined_reads.setter
    def undefined_reads(self, value: list[UndefinedRead]) -> None:
        self._closed("m.undefined_reads = ...")
        self._undefined_reads = value

    def _closed(self, what: str) -> None:
        if self._running:
            raise HonestyError(
                f"{what} while a program runs tells the host about data outside the "
                "machine's steps; read it after the run"
            )

    @property
    def cost(self) -> Cost:
        """The ledger: read-only (a :class:`pram.cost.Ledger` view) while a program runs."""
        return cast(Cost, self._ledger) if self._running else self._cost

    @cost.setter
    def cost(self, cost: Cost) -> None:
        if self._running:
            raise HonestyError(
                "m.cost = ... while a program runs replaces the ledger; only the machine "
                "counts: run steps, and read m.cost after the run"
            )
        self._cost = cost
        self._ledger = Ledger(cost)

    def run(self, program: Program[T]) -> T:
        """Drive ``program`` to its end, one global step per request; return its result.

        While it runs, memory is sealed and the ledger read-only; the observer, if any, is
        told of every global step after it executed.
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
        token = Run(self, self.observer)
        _begin(token)
        self._token = token
        cost = self._cost
        self._running += 1
        self._seal(True)
        try:
            request = next(program)
            while True:
                if type(request) is Step:
                    steps: Sequence[Step] = (request,)
                elif type(request) is Bundle:
                    steps = request.steps
                else:
                    raise StepError(
                        f"a program must yield Step or Bundle objects (got {request!r}) "
                        f"before step {self._cost.time + 1}",
                        self._cost.time + 1,
                    )
                for step in steps:
                    pid = getattr(step, "processors", None)
                    if type(pid) is not np.ndarray or not isinstance(pid.base, bytes):
                        steps = _acting(steps, cost.time + 1, token)
                        break
                local = token._operations
                token._operations = 0
                cost.local += local
                if local > cost.max_local:
                    cost.max_local = local
                replies = self._execute(steps)
                token.step(cost.time, steps, replies)
                reply: Values | list[Values] = (
                    replies[0] if type(request) is Step else replies
                )
                request = program.send(reply)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        finally:
            local = token._operations
            cost.local += local
            if local > cost.max_local:
                cost.max_local = local
            self._running -= 1
            self._token = None
            _end(token)
            if not self._running:
                self._seal(False)

    def _seal(self, sealed: bool) -> None:
        """Seal (or open) every array of this machine: see :class:`pram.Array`."""
        for array in self.arrays.values():
            if sealed:
                array.begin()
            array._sealed = sealed

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
        return self._execute(steps)

    def _execute(self, steps: Sequence[Step]) -> list[Values]:
        """:meth:`execute`, for the run's own steps."""
        number = self._cost.time + 1
        facts = _Facts()
        plain = self._plain(steps, facts)
        if plain is not None:
            return plain
        accesses: list[_Access] = []
        seated = 0
        for branch, step in enumerate(steps):
            seated = self._gather_accesses(step, branch, seated, number, accesses, facts)
        if self.distinct_processors:
            self._check_processors(steps, seated, number, facts)
        groups: dict[int, list[_Access]] = {}
        for access in accesses:
            groups.setdefault(id(access.array), []).append(access)
        # Writes resolved by the model, for the arrays where two processors wrote one cell.
        resolved: dict[int, tuple[Words, Words]] = {}
        checks_reads = self.model.checks_reads
        for key, group in groups.items():
            if len(group) == 1:
                only = group[0]
                if only.ascending or len(only.index) < 2 or not (only.is_write or checks_reads):
                    continue  # one port to the array, its cells distinct (or not checked)
            outcome = self._check(group, number, steps, seated, facts)
            if outcome is not None:
                resolved[key] = outcome
        # Every read sees memory as it was before the step: all reads, then all writes.
        replies: list[list[Register]] = [[] for _ in steps]
        reads = writes = 0
        for access in accesses:
            if not access.is_write:
                reads += len(access.index)
                replies[access.branch].append(self._read(access, number))
        for access in accesses:
            if access.value is not None:
                writes += len(access.index)
                if id(access.array) not in resolved:
                    self._store(access.array, access.index, access.value)
        for key, (cells, values) in resolved.items():
            self._store(groups[key][0].array, cells, values)
        if len(steps) == 1:
            self._account_one(len(steps[0].processors), reads, writes, steps[0].phase)
        else:
            tallies = [[len(step.processors), 0, 0] for step in steps]
            for access in accesses:
                tallies[access.branch][1 + access.is_write] += len(access.index)
            self._account(steps, [(n, r, w) for n, r, w in tallies])
        return [tuple(reply) for reply in replies]

    # ---- the parts of a step ---------------------------------------------------------------

    def _plain(self, steps: Sequence[Step], facts: _Facts) -> list[Values] | None:
        """Execute the global step ``steps`` if it is plain, or return None (having changed
        nothing) if not.

        A plain step is the usual one, recognised with the fewest tests: in every branch, word
        processor ids that are distinct (ascending, the branches' ranges apart), no ``where``
        masks, indices and values that are plain word arrays, the branch's own registers or
        (values) integers, every index ascending and in range; the checked ports into one
        array meeting at no cell (their ranges apart, or the seats test); and no undefined
        cell read. No two of its processors meet, so there is nothing to judge. Every other
        step, and every error, is the general path's (:meth:`execute`), which names what is
        wrong; the counts are the same either way.
        """
        for step in steps:
            if type(step) is not Step:
                return None
            pid, reads, writes = step.processors, step.reads, step.writes
            if ((type(pid) is not np.ndarray and type(pid) is not Chosen)
                    or pid.dtype is not _WORD or pid.ndim != 1 or not len(pid)
                    or len(reads) > MAX_ACCESSES or len(writes) > MAX_ACCESSES):
                return None
            for read in reads:
                if type(read) is not Read or read.where is not None:
                    return None
            for write in writes:
                if type(write) is not Write or write.where is not None:
                    return None
        if self.distinct_processors:
            for step in steps:
                pid = step.processors
                if len(pid) > 1 and not _ascending(pid, facts):  # type: ignore[arg-type]
                    return None
            if len(steps) > 1 and not _apart([step.processors for step in steps]):  # type: ignore[misc]
                return None
        arrays, checks_reads, token = self.arrays, self.model.checks_reads, self._token
        # Each array's checked ports: their indices, and the seats of their first processors.
        checked: dict[int, tuple[Array, list[tuple[Words, int]]]] = {}
        seated = 0
        for step in steps:
            pid = step.processors
            n = len(pid)
            for kind, checks in ((step.reads, checks_reads), (step.writes, True)):
                for port in kind:
                    array = port.array
                    index = _plain_words(port.index, pid, n, token)  # type: ignore[arg-type]
                    if (index is None or type(array) is not Array
                            or arrays.get(array.name) is not array
                            or (n > 1 and not _ascending(index, facts))
                            or index.item(0) < 0 or index.item(-1) >= array.size):
                        return None
                    if checks:
                        checked.setdefault(id(array), (array, []))[1].append((index, seated))
            for write in step.writes:
                if not _plain_value(write.value, pid, n, token):  # type: ignore[arg-type]
                    return None
            seated += n
        for array, ports in checked.values():
            if len(ports) > 1 and not self._plain_unshared(array, ports, steps, facts):
                return None  # the general path names the processors that met
        replies: list[Values] = []
        for step in steps:
            pid = cast(Words, step.processors)
            values = []
            for read in step.reads:
                array, index = read.array, _words(read.index)
                if array._defined is not None:
                    known = array._defined.take(index)
                    if np.count_nonzero(known) != len(pid):
                        return None  # the general path reports the undefined cells
                values.append(Register(array._cells.take(index), pid, self._token))
            replies.append(tuple(values))
        for step, got in zip(steps, replies, strict=True):
            if got and step.processors.flags.writeable:
                step.processors.flags.writeable = False  # bound to registers: they never change
            for write in step.writes:
                self._store(write.array, _words(write.index), _words(write.value))
        tallies = [(len(s.processors), len(s.processors) * len(s.reads),
                    len(s.processors) * len(s.writes)) for s in steps]
        if len(steps) == 1:
            self._account_one(*tallies[0], steps[0].phase)
        else:
            self._account(steps, tallies)
        return replies

    def _plain_unshared(
        self, array: Array, ports: list[tuple[Words, int]], steps: Sequence[Step], facts: _Facts
    ) -> bool:
        """Whether the checked ports of a plain step into ``array`` (ascending indices, each
        with the seat of its branch's first processor) touch no cell by two processors: their
        ranges apart, or the seats test (:meth:`_unshared`), whose answer the general path
        finds in ``facts`` if it is asked again."""
        indices = [index for index, _ in ports]
        if _apart(indices):
            return True
        if sum(len(step.processors) for step in steps) > _SEATS_MAX:
            return False
        key = tuple((id(index), seat, id(None)) for index, seat in ports)
        unshared = facts.distinct.get(key)
        if unshared is None:
            marked = [(index, self._seats(seat, len(index))) for index, seat in ports]
            unshared = facts.distinct[key] = self._unshared(array.size, marked, True)
        return unshared

    def _gather_accesses(
        self,
        step: Step,
        branch: int,
        seated: int,
        number: int,
        accesses: list[_Access],
        facts: _Facts,
    ) -> int:
        """Validate ``step`` and append its accesses; return the seats taken so far."""
        if type(step) is not Step:
            raise StepError(
                f"a Bundle must hold Step objects (got {step!r}) in step {number}", number
            )
        pid = step.processors
        if (type(pid) is not np.ndarray or pid.dtype is not _WORD or pid.ndim != 1) and (
            not isinstance(pid, np.ndarray) or pid.ndim != 1 or pid.dtype.kind not in "iu"
        ):
            raise StepError(
                f"processors of step {number} must be a 1-d integer array (got {_describe(pid)})",
                number,
            )
        n = len(pid)
        reads, writes = step.reads, step.writes
        for port in (*reads, *writes):
            for x in (getattr(port, "index", None), getattr(port, "value", None),
                      getattr(port, "where", None)):
                if type(x) is Register and x._run is not None and x._run is not self._token:
                    raise HonestyError(
                        f"a register of another run (or machine) is used in step {number}; "
                        f"registers live for one run of one machine: {THROUGH_MEMORY}"
                    )
        if len(reads) > MAX_ACCESSES or len(writes) > MAX_ACCESSES:
            raise StepError(
                f"step {number} asks each processor for {len(reads)} reads and "
                f"{len(writes)} writes; at most {MAX_ACCESSES} of each are allowed, so "
                "split the work over more steps",
                number,
            )
        for read in reads:
            if type(read) is not Read:
                raise StepError(
                    f"reads of step {number} must be Read objects (got {read!r})", number
                )
            array = read.array
            if type(array) is not Array or self.arrays.get(array.name) is not array:
                self._own(array, number)
            where = None if read.where is None else _mask(read.where, n, number, array, pid)
            index = _index(read.index, n, number, array, where, pid)
            access = _Access(step, branch, seated, array, index, where, None)
            self._check_bounds(access, number, "read", facts)
            accesses.append(access)
        for write in writes:
            if type(write) is not Write:
                raise StepError(
                    f"writes of step {number} must be Write objects (got {write!r})", number
                )
            array = write.array
            if type(array) is not Array or self.arrays.get(array.name) is not array:
                self._own(array, number)
            where = None if write.where is None else _mask(write.where, n, number, array, pid)
            index = _index(write.index, n, number, array, where, pid)
            value = _value(write.value, n, number, array, where, pid)
            access = _Access(step, branch, seated, array, index, where, value)
            self._check_bounds(access, number, "write", facts)
            accesses.append(access)
        return seated + n

    def _seats(self, first: int, n: int) -> Seats:
        """Seats ``first, ..., first + n - 1`` (a view of one cached range; empty past 2^31)."""
        end = first + n
        if end > _SEATS_MAX:
            return np.zeros(0, dtype=np.int32)  # too many for 32 bits: the check goes slow
        if end > len(self._seat_range):
            self._seat_range = np.arange(max(end, 2 * len(self._seat_range)), dtype=np.int32)
        return self._seat_range[first:end]

    def _check_processors(
        self, steps: Sequence[Step], seated: int, number: int, facts: _Facts
    ) -> None:
        """Refuse a processor id listed twice in one global step: it would be counted twice.

        Ids within a span of ``max(4 * seated, 2^23)`` go through one scatter and one gather of
        seats into 32-bit marks, like the conflict check (offset by the smallest id when the
        ids are not small and non-negative); ids spread wider are sorted, which is rare.
        """
        if seated <= _SMALL:
            seen: set[int] = set()
            for step in steps:
                for pid in step.processors.tolist():
                    if pid in seen:
                        self._acts_twice(pid, steps, number)
                    seen.add(pid)
            return
        if len(steps) == 1:
            if _ascending(cast(Words, steps[0].processors), facts):
                return  # one step, its ids ascending: all distinct
        else:
            ids = [cast(Words, s.processors) for s in steps]
            if all(_ascending(pid, facts) for pid in ids if len(pid) > 1) and _apart(ids):
                return  # each step's ids ascending and the steps' ranges apart: all distinct
        acting = [s.processors.astype(np.int64, copy=False) for s in steps if len(s.processors)]
        budget = max(4 * seated, _MARKS_FLOOR)
        low = min(int(pid.min()) for pid in acting)
        high = max(int(pid.max()) for pid in acting)
        offset = 0 if low >= 0 and high < budget else low  # small ids index the marks directly
        span = high - offset + 1
        if span <= budget and seated <= _SEATS_MAX:
            marks = self._marks(span)
            cells = [pid if offset == 0 else pid - offset for pid in acting]
            seats: list[Seats] = []
            first = 0
            for pid in acting:
                seats.append(self._seats(first, len(pid)))
                first += len(pid)
            for cell, seat in zip(cells, seats, strict=True):
                marks[cell] = seat
            for pid, cell, seat in zip(acting, cells, seats, strict=True):
                same = np.take(marks, cell) == seat
                if not same.all():
                    self._acts_twice(int(pid[np.argmin(same)]), steps, number)
            return
        everyone = np.concatenate([s.processors.astype(np.int64) for s in steps])
        ordered = np.sort(everyone)
        again = np.flatnonzero(ordered[1:] == ordered[:-1])
        if len(again):
            self._acts_twice(int(ordered[again[0]]), steps, number)

    @staticmethod
    def _acts_twice(pid: int, steps: Sequence[Step], number: int) -> None:
        """Raise for ``pid`` listed twice, naming the phase of the last step listing it."""
        step = next(s for s in reversed(steps) if bool((s.processors == pid).any()))
        raise StepError(
            f"processor {pid} acts twice {when(number, step.phase)}; a processor "
            "acts at most once per step, so give each parallel branch its own processors "
            "(Machine.processors hands out fresh ones)",
            number,
        )

    def _own(self, array: Any, number: int) -> None:
        """Refuse an access to something that is not an array of this machine."""
        if not isinstance(array, Array):
            raise StepError(
                f"an access in step {number} names {array!r}, which is not a pram Array; "
                "allocate arrays with Machine.array",
                number,
            )
        if self.arrays.get(array.name) is not array:
            if array.freed:
                raise StepError(
                    f"array {array.name!r} accessed in step {number} was freed; free an array "
                    "only after the last step that accesses it",
                    number,
                )
            raise StepError(
                f"array {array.name!r} accessed in step {number} belongs to another machine; "
                "allocate it on this one",
                number,
            )

    def _check_bounds(self, access: _Access, number: int, verb: str, facts: _Facts) -> None:
        """Refuse an index outside the array; note whether the indices are strictly ascending.

        Ascending indices (the usual case: cells computed from processor ranks) are in range
        when the first and the last are, and are distinct, which spares the conflict check its
        scatter and gather (:meth:`_distinct`).
        """
        index, size = access.index, access.array.size
        if len(index) <= _SMALL:
            cells = index.tolist()  # a few cells: Python is quicker than a numpy call
            if not cells or (min(cells) >= 0 and max(cells) < size):
                return
        elif _ascending(index, facts):
            access.ascending = True
            if index.item(0) >= 0 and index.item(-1) < size:
                return
        else:
            # A negative index viewed as unsigned is larger than any size; argmax finds the
            # largest without a ufunc reduction's fixed cost.
            unsigned = index.view(np.uint64)
            if unsigned.item(unsigned.argmax()) < size:
                return
        array = access.array
        bad = int(np.flatnonzero((index < 0) | (index >= size))[0])
        pid = access.processors
        raise AddressError(
            f"processor {int(pid[bad])} tried to {verb} {array.name}[{int(index[bad])}] "
            f"{when(number, access.step.phase)}, but {array.name} has {_cells(array)}",
            step=number,
            array=array.name,
            index=int(index[bad]),
            processor=int(pid[bad]),
        )

    def _check(
        self,
        group: list[_Access],
        number: int,
        steps: Sequence[Step],
        seated: int,
        facts: _Facts,
    ) -> tuple[Words, Words] | None:
        """Check one array's accesses against the model; return resolved writes if they clash.

        Ports with the same indices, processors and masks as ports of an array checked before
        in this step (the fields of a record, say) touch distinct cells if those did.
        """
        checks_reads = self.model.checks_reads
        checked = [a for a in group if a.is_write or checks_reads]
        total = 0
        for access in checked:
            total += len(access.index)
        if total < 2:
            return None
        ports = tuple((id(a.index), a.seat, id(a.where)) for a in checked)
        distinct = facts.distinct.get(ports)
        if distinct is None:
            distinct = facts.distinct[ports] = self._distinct(checked, total, seated)
        return None if distinct else self._collide(group, number, steps)

    def _marks(self, size: int) -> Seats:
        """At least ``size`` cells of 32-bit scratch, shared by every check of the machine.

        Each check scatters seats and gathers them back before the next one starts, so one
        buffer as large as the largest array checked serves them all (not one per array).
        """
        if len(self._scratch) < size:
            self._scratch = np.empty(size, dtype=np.int32)
        return self._scratch

    def _distinct(self, checked: list[_Access], total: int, seated: int) -> bool:
        """Whether no cell is touched by two different processors (``seated`` processors in
        the global step)."""
        if total <= _SMALL:
            seen: dict[int, int] = {}
            for access in checked:
                cells, pids = access.index.tolist(), access.processors.tolist()
                for cell, pid in zip(cells, pids, strict=True):
                    if seen.setdefault(cell, pid) != pid:
                        return False
            return True
        if all(a.ascending for a in checked) and _apart([a.index for a in checked]):
            return True  # each port's cells distinct, the ports' ranges apart: nothing shared
        if seated > _SEATS_MAX:
            return False  # over 2^31 processors in the global step: the slow path decides
        ports = [(a.index, self._seats_of(a)) for a in checked]
        return self._unshared(checked[0].array.size, ports, checked[-1].ascending)

    def _unshared(self, size: int, ports: list[tuple[Words, Seats]], last_distinct: bool) -> bool:
        """Whether no two processors meet at a cell of an array of ``size`` cells through
        ``ports`` (their cells, and the seats of the processors touching them).

        Every cell touched gets the seat of the last processor to touch it (one scatter per
        port); a cell touched by two processors then shows a foreign seat to at least one of
        them (one gather and one comparison per port). A seat stands for a processor (one seat
        per processor of the global step), so equal seats mean one processor. When the last
        port's cells are distinct (``last_distinct``), each of them holds its own seat, so
        only the ports before it need to look.
        """
        marks = self._marks(size)
        for cells, seats in ports:
            marks[cells] = seats
        for cells, seats in ports[:-1] if last_distinct else ports:
            if np.count_nonzero(marks.take(cells) != seats):
                return False
        return True

    def _seats_of(self, access: _Access) -> Seats:
        """Each processor's seat in ``access``: its position among all processors of the global
        step. Seats are distinct per processor (as ids are) but small, so the fast conflict
        check can scatter them into 32-bit marks. Computed when a check needs them."""
        every = self._seats(access.seat, len(access.step.processors))
        return every if access.where is None else every[access.where]

    def _collide(
        self, group: list[_Access], number: int, steps: Sequence[Step]
    ) -> tuple[Words, Words] | None:
        """The slow path: name every violation at the shared cells and resolve their writes.

        Everything is vectorised over the accesses; Python only loops over the violations it
        reports. Returns ``(cells, values)`` to store when two processors wrote one cell.
        """
        writes = _Flat.of([a for a in group if a.is_write]).by_cell(keep_last=True)
        # A processor writing one cell through two ports was reduced to its later port above,
        # so each run of a cell in ``writes`` holds distinct processors, ascending.
        starts = _runs(writes.cells)
        if self._forbids_any:
            reads = (
                _Flat.of([a for a in group if not a.is_write]).by_cell(keep_last=False)
                if self.model.checks_reads
                else _Flat.empty()
            )
            self._judge(group[0].array, number, steps, reads, writes, starts)
        if len(starts) == len(writes.cells):
            return None
        if self._random is None:
            self._random = np.random.default_rng(self._seed)
        return writes.cells[starts], self.model.resolve(writes.values, starts, self._random)

    def _judge(
        self,
        array: Array,
        number: int,
        steps: Sequence[Step],
        reads: _Flat,
        writes: _Flat,
        write_starts: Words,
    ) -> None:
        """Record (or raise) one violation per cell and kind of meeting the model forbids."""
        forbids = self.model.forbids
        found: list[tuple[Kind, _Flat, Words, Words]] = []
        # write/write: cells with two or more writers.
        ww_agree, ww_differ = forbids(Kind.WRITE_WRITE, True), forbids(Kind.WRITE_WRITE, False)
        if ww_agree or ww_differ:
            ends = _ends(write_starts, len(writes.cells))
            shared = ends - write_starts > 1
            s, e = write_starts[shared], ends[shared]
            if ww_agree != ww_differ and len(s):
                low = np.minimum.reduceat(writes.values, write_starts)[shared]
                high = np.maximum.reduceat(writes.values, write_starts)[shared]
                bad = np.where(low == high, ww_agree, ww_differ)
                s, e = s[bad], e[bad]
            found.append((Kind.WRITE_WRITE, writes, s, e))
        if self.model.checks_reads:
            # read/read: cells read by two or more processors.
            if forbids(Kind.READ_READ, True):
                read_starts = _runs(reads.cells)
                ends = _ends(read_starts, len(reads.cells))
                shared = ends - read_starts > 1
                found.append((Kind.READ_READ, reads, read_starts[shared], ends[shared]))
            # read/write: cells read and written, by two or more processors in all.
            if forbids(Kind.READ_WRITE, True) and len(reads.cells) and len(writes.cells):
                both = _Flat.join(reads, writes).by_cell(keep_last=None)
                # Per cell: did anyone read it (bit 1), did anyone write it (bit 2)?
                kinds = np.bitwise_or.reduceat(both.values, _runs(both.cells))
                both = both.unique(keep_last=False)
                both_starts = _runs(both.cells)
                ends = _ends(both_starts, len(both.cells))
                bad = (kinds == 3) & (ends - both_starts > 1)
                found.append((Kind.READ_WRITE, both, both_starts[bad], ends[bad]))
        found = [f for f in found if len(f[2])]
        if not found:
            return
        # Report in a fixed order: by cell, then read/read, write/write, read/write.
        rank = {Kind.READ_READ: 0, Kind.WRITE_WRITE: 1, Kind.READ_WRITE: 2}
        cells = np.concatenate([flat.cells[s] for _, flat, s, _ in found])
        kind_rank = np.concatenate([np.full(len(s), rank[k]) for k, _, s, _ in found])
        which = np.concatenate([np.full(len(s), i) for i, (_, _, s, _) in enumerate(found)])
        at = np.concatenate([np.arange(len(s)) for _, _, s, _ in found])
        order = np.lexsort((kind_rank, cells))
        if self.mode == "raise":
            order = order[:1]
        lists = [
            (flat.cells[s].tolist(), s.tolist(), e.tolist(), flat.pids.tolist(),
             flat.values.tolist(), flat.branch.tolist())
            for _, flat, s, e in found
        ]
        for i in order.tolist():
            f = int(which[i])
            kind = found[f][0]
            cell_list, s_list, e_list, pid_list, value_list, branch_list = lists[f]
            j = int(at[i])
            s_j, e_j = s_list[j], e_list[j]
            shown = (
                tuple(value_list[s_j:e_j])
                if kind is Kind.WRITE_WRITE and self.model.judges_values
                else ()
            )
            phases = tuple(dict.fromkeys(steps[b].phase for b in sorted(set(branch_list[s_j:e_j]))))
            violation = Violation(
                self.model.name,
                kind,
                number,
                steps[branch_list[s_j]].phase,
                array.name,
                cell_list[j],
                tuple(pid_list[s_j:e_j]),
                shown,
                phases if len(phases) > 1 else (),
            )
            # Recorded before it is raised, so a caught ConflictError still fails assert_erew.
            self._violations.append(violation)
            if self.mode == "raise":
                raise ConflictError(violation)

    @property
    def _forbids_any(self) -> bool:
        """Whether the model forbids any meeting at all (CRCW resolution models do not)."""
        forbids = self.model.forbids
        return any(forbids(kind, agree) for kind in Kind for agree in (True, False))

    def _read(self, access: _Access, number: int) -> Register:
        """The values read, as a register of the step's processors (0 where masked out)."""
        array, index = access.array, access.index
        # take gathers faster than fancy indexing; the indices were checked in range.
        if array._defined is not None:
            known = array._defined.take(index)
            if np.count_nonzero(known) != len(known):
                self._undefined(access, known, number)
        values: Words = array._cells.take(index)
        if access.where is not None:
            full = np.zeros(len(access.where), dtype=np.int64)
            full[access.where] = values
            values = full
        owners = cast(Words, access.step.processors)
        if owners.flags.writeable:
            owners.flags.writeable = False  # bound to registers now: changing them would move
        return Register(values, owners, self._token)

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
            self._undefined_reads.append(record)

    @staticmethod
    def _store(array: Array, cells: Words, values: Words) -> None:
        array._cells[cells] = values
        if array._defined is not None:
            array._defined[cells] = True

    def _account(self, steps: Sequence[Step], tallies: Sequence[tuple[int, int, int]]) -> None:
        """Charge one unit of time and the step's processors, reads and writes (``tallies``,
        one per branch) to the ledger, and to the phase of each branch and the phases around
        it."""
        cost = self._cost
        active = reads = writes = 0
        shares: dict[str, list[int]] = {}
        for step, (n, r, w) in zip(steps, tallies, strict=True):
            active += n
            reads += r
            writes += w
            if step.phase:
                for label in self._prefix(step.phase):
                    tally = shares.get(label)
                    if tally is None:
                        shares[label] = [n, r, w]
                    else:
                        tally[0] += n
                        tally[1] += r
                        tally[2] += w
        for label, (n, r, w) in shares.items():
            share = cost.phases.get(label)
            if share is None:
                share = cost.phases[label] = PhaseCost()
            # The phase's own processors in this step, not those of other branches.
            charge(share, n, r, w)
        charge(cost, active, reads, writes)
        cost.profile.append(active)
        cost.step_phases.append(
            (steps[0].phase,) if len(steps) == 1 else tuple(sorted({s.phase for s in steps}))
        )

    def _account_one(self, n: int, reads: int, writes: int, phase: str) -> None:
        """:meth:`_account` for a global step of one step (of ``n`` processors)."""
        cost = self._cost
        if phase:
            phases = cost.phases
            for label in self._prefix(phase):
                share = phases.get(label)
                if share is None:
                    share = phases[label] = PhaseCost()
                charge(share, n, reads, writes)
        charge(cost, n, reads, writes)
        cost.profile.append(n)
        cost.step_phases.append((phase,))

    def _prefix(self, path: str) -> tuple[str, ...]:
        prefixes = self._prefixes.get(path)
        if prefixes is None:
            parts = path.split("/")
            prefixes = tuple("/".join(parts[: i + 1]) for i in range(len(parts)))
            self._prefixes[path] = prefixes
        return prefixes


# ---- validation at the boundary ------------------------------------------------------------


def _mask(where: Any, n: int, number: int, array: Array, pid: Words) -> Flags | None:
    if where is None:
        return None
    if isinstance(where, Register):
        where = _own_register(where, pid, number, "the where mask of an access to", array)
    if not isinstance(where, np.ndarray) or where.dtype != np.bool_ or where.shape != (n,):
        raise StepError(
            f"where of an access to {array.name} in step {number} must be a boolean array of "
            f"shape ({n},), one flag per processor (got {_describe(where)})",
            number,
        )
    return where


def _index(
    index: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> Words:
    if type(index) is np.ndarray:
        pass  # the usual plain array: its shape and type are checked below
    elif isinstance(index, Register):
        index = _own_register(index, pid, number, "the index into", array)
    elif isinstance(index, int | np.integer) and not isinstance(index, bool):
        if not _INT64_MIN <= int(index) <= _INT64_MAX:
            raise StepError(
                f"index into {array.name} in step {number} must fit in int64 (got {int(index)}); "
                f"{array.name} has {_cells(array)}",
                number,
            )
        index = np.full(n, int(index), dtype=np.int64)
    if not isinstance(index, np.ndarray) or index.shape != (n,) or index.dtype.kind not in "iu":
        raise StepError(
            f"index into {array.name} in step {number} must be an integer array of shape ({n},), "
            f"one cell per processor (got {_describe(index)})",
            number,
        )
    if index.dtype is not _WORD:
        if index.dtype == np.uint64:
            _fits(index, f"index into {array.name}", number, where,
                  f"{array.name} has {_cells(array)}")
        index = index.astype(np.int64)
    return index if where is None else index[where]  # type: ignore[no-any-return]


def _value(
    value: Any, n: int, number: int, array: Array, where: Flags | None, pid: Words
) -> Words:
    if type(value) is np.ndarray:
        pass  # the usual plain array: its shape and type are checked below
    elif isinstance(value, Register):
        value = _own_register(value, pid, number, "the value written to", array)
    elif isinstance(value, int | np.integer) and not isinstance(value, bool):
        if not _INT64_MIN <= int(value) <= _INT64_MAX:
            raise StepError(
                f"value written to {array.name} in step {number} must fit in int64 "
                f"(got {int(value)})",
                number,
            )
        return np.full(n if where is None else int(np.count_nonzero(where)), value, np.int64)
    if not isinstance(value, np.ndarray) or value.shape != (n,) or value.dtype.kind not in "iub":
        raise StepError(
            f"value written to {array.name} in step {number} must be an integer array of shape "
            f"({n},) or one integer (got {_describe(value)})",
            number,
        )
    if value.dtype is not _WORD:
        if value.dtype == np.uint64:
            _fits(value, f"value written to {array.name}", number, where,
                  "use values below 2**63")
        value = value.astype(np.int64)
    return value if where is None else value[where]  # type: ignore[no-any-return]


def _plain_words(x: Any, pid: Words, n: int, token: Run | None = None) -> Words | None:
    """``x`` as the ``n`` words of a plain step (see :meth:`Machine._plain`), or None: a plain
    word array, or a register of exactly the step's processors holding words."""
    if type(x) is Register:
        if x._processors is not pid or (x._run is not token and x._run is not None):
            return None
        x = x._values
    if type(x) is not np.ndarray or x.dtype is not _WORD or x.shape != (n,):
        return None
    return x


def _plain_value(x: Any, pid: Words, n: int, token: Run | None) -> bool:
    """Whether ``x`` is a plain step's value: its words, or one integer that fits a word."""
    if type(x) is int:
        return _INT64_MIN <= x <= _INT64_MAX
    return _plain_words(x, pid, n, token) is not None


def _words(x: Any) -> Any:
    """The words of a plain step's index or value (checked by :func:`_plain_words`)."""
    if type(x) is Register:
        return x._values
    return x


def _fits(x: Any, what: str, number: int, where: Flags | None, fix: str) -> None:
    """Refuse uint64 entries beyond int64, which a cast would silently wrap to negatives."""
    if x.dtype != np.uint64 or not len(x):
        return
    acting = x if where is None else x[where]
    if len(acting) and int(acting.max()) > _INT64_MAX:
        raise StepError(
            f"{what} in step {number} must fit in int64 (got {int(acting.max())}); {fix}",
            number,
        )


def _cells(array: Array) -> str:
    return f"indices 0 to {array.size - 1}" if array.size else "no cells"


def _acting(steps: Sequence[Step], number: int, token: Run) -> list[Step]:
    """``steps`` with every register of processors (the processors that decided to act, each
    holding its own id) replaced by the ids it belongs to, and plain ids by ids in immutable
    memory (:func:`pram.registers.freeze`): the registers a step's reads return are bound to
    them, so nothing may change them later."""
    plain = []
    for step in steps:
        if type(step) is not Step:
            plain.append(step)  # refused by the step's validation
            continue
        who = step.processors
        if type(who) is Register:
            if run_of(who) is not token:
                raise HonestyError(
                    f"the processors of step {number} are a register of another run; "
                    "select the processors that act from hold(pid, pid) in this run"
                )
            owners = who._processors
            held = who._values
            if held is not owners and not np.array_equal(held, owners):
                raise HonestyError(
                    f"the processors of step {number} are a register that does not hold "
                    "processor ids; select the processors that act from hold(pid, pid) "
                    "with a mask"
                )
            step = Step(cast(Words, owners), step.reads, step.writes, step.phase)
        elif type(who) is np.ndarray and who.dtype.kind in "iu" and who.ndim == 1:
            frozen = freeze(who)
            if frozen is not who:
                step = Step(cast(Words, frozen), step.reads, step.writes, step.phase)
        plain.append(step)
    return plain


def _own_register(register: Register, pid: Words, number: int, what: str, array: Array) -> Any:
    """The contents of ``register`` (``what`` of an access to ``array``) if it belongs to the
    step's processors, in order."""
    owners = register._processors
    if owners is not pid and (type(owners) is Chosen or type(pid) is Chosen
                              or not same_processors(owners, pid)):
        raise HonestyError(
            f"{what} {array.name} in step {number} is a register of other processors than the "
            f"step's (or in another order); {THROUGH_MEMORY}"
        )
    return register._values


#: Arrays longer than this are first probed in Python before an ascending test in numpy.
_PROBE_ABOVE = 4096

class _Facts:
    """What one global step learnt, so that no test runs twice in it: for each array (by id,
    kept alive beside) whether its entries are strictly ascending, and for each list of ports
    (by the ids of their indices and masks, which their accesses keep alive, and their seats)
    whether they touch distinct cells."""

    __slots__ = ("ascending", "distinct")

    def __init__(self) -> None:
        self.ascending: dict[int, tuple[Words, bool]] = {}
        self.distinct: dict[tuple[tuple[int, int, int], ...], bool] = {}


class _Ids(bytes):
    """The memory of ids handed out by :meth:`Machine.processors`: ascending, and immutable
    (numpy refuses to make an array over bytes writeable), so never tested again. It knows
    the one array handed out over it: another array over the same bytes (other types, other
    offsets) is tested like any other."""

    handed_out: weakref.ref[Words]


def _ascending(values: Words, facts: _Facts) -> bool:
    """Whether ``values`` (more than one) are strictly ascending. A long array's first eight
    are probed in Python first, which spares the numpy pass over a random order."""
    memory = values.base
    if isinstance(memory, _Ids) and memory.handed_out() is values:
        return True  # exactly the ids Machine.processors handed out (views have other bases)
    known = facts.ascending
    seen = known.get(id(values))
    if seen is not None and seen[0] is values:
        return seen[1]
    n = len(values)
    if n > _PROBE_ABOVE:
        head = values[:8].tolist()
        if head != sorted(set(head)):
            known[id(values)] = (values, False)
            return False
    # count_nonzero skips the fixed cost of a ufunc reduction such as all().
    ascending = int(np.count_nonzero(np.greater(values[1:], values[:-1]))) == n - 1
    known[id(values)] = (values, ascending)
    return ascending


def _apart(ascending: list[Words]) -> bool:
    """Whether the spans ``[first, last]`` of ascending arrays overlap nowhere; empty arrays
    have no span."""
    if len(ascending) == 1:
        return True
    if len(ascending) == 2:  # the usual pair of ports: no sorting
        a, b = ascending
        return not len(a) or not len(b) or a.item(-1) < b.item(0) or b.item(-1) < a.item(0)
    spans = sorted([(a.item(0), a.item(-1)) for a in ascending if len(a)])
    return all(last < first for (_, last), (first, _) in pairwise(spans))


def _describe(x: Any) -> str:
    if isinstance(x, np.ndarray):
        return f"array of dtype {x.dtype} and shape {x.shape}"
    return repr(x)


class _Flat:
    """The accesses of several ports to one array, flattened: cell, processor, value, branch."""

    __slots__ = ("branch", "cells", "pids", "values")

    def __init__(self, cells: Words, pids: Words, values: Words, branch: Words) -> None:
        self.cells = cells
        self.pids = pids
        self.values = values
        self.branch = branch

    @staticmethod
    def empty() -> _Flat:
        nothing = np.zeros(0, dtype=np.int64)
        return _Flat(nothing, nothing, nothing, nothing)

    @staticmethod
    def of(accesses: list[_Access]) -> _Flat:
        if not accesses:
            return _Flat.empty()
        return _Flat(
            np.concatenate([a.index for a in accesses]),
            np.concatenate([a.processors for a in accesses]).astype(np.int64, copy=False),
            np.concatenate(
                [a.value if a.value is not None else np.zeros(len(a.index), np.int64)
                 for a in accesses]
            ),
            np.concatenate([np.full(len(a.index), a.branch, dtype=np.int64) for a in accesses]),
        )

    @staticmethod
    def join(reads: _Flat, writes: _Flat) -> _Flat:
        """Reads and writes together, each value replaced by its kind: 1 read, 2 write."""
        return _Flat(
            np.concatenate([reads.cells, writes.cells]),
            np.concatenate([reads.pids, writes.pids]),
            np.concatenate(
                [np.ones(len(reads.cells), np.int64), np.full(len(writes.cells), 2, np.int64)]
            ),
            np.concatenate([reads.branch, writes.branch]),
        )

    def by_cell(self, *, keep_last: bool | None) -> _Flat:
        """Sorted by (cell, processor), stably, so one processor's ports keep their order.

        With ``keep_last`` True (False) only the last (first) access of each processor to each
        cell is kept; with None all are kept.
        """
        order = np.lexsort((self.pids, self.cells))
        flat = _Flat(
            self.cells[order], self.pids[order], self.values[order], self.branch[order]
        )
        return flat if keep_last is None else flat.unique(keep_last=keep_last)

    def unique(self, *, keep_last: bool) -> _Flat:
        """One access per (cell, processor) of a sorted flat: the last or the first."""
        if len(self.cells) < 2:
            return self
        again = (self.cells[1:] == self.cells[:-1]) & (self.pids[1:] == self.pids[:-1])
        keep = np.r_[~again, True] if keep_last else np.r_[True, ~again]
        return _Flat(self.cells[keep], self.pids[keep], self.values[keep], self.branch[keep])


def _runs(cells: Words) -> Words:
    """Where each run of equal cells starts in a sorted array (nothing for an empty one)."""
    if len(cells) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.r_[True, cells[1:] != cells[:-1]])


def _ends(starts: Words, total: int) -> Words:
    """Where each run ends (exclusive), given where each starts."""
    return np.append(starts[1:], total).astype(np.int64)
