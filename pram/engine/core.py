"""The engine behind :class:`pram.Machine`: one global step, *evaluate, then commit*, of one
machine or of a batch's B instances at once (``Machine(batch=B)``: the instance axis,
:mod:`pram.engine.instances`), by one :class:`Engine`.

Every read of a global step sees memory as it was before the step; every write is applied
together at its end, after the model has resolved concurrent writers. Work is vectorised
across processors with numpy, so Python cost is paid per step and per port, never per
processor. :meth:`Engine.execute` runs the phases numbered in its comments:

0. the fast path (the first branch): a step every later phase would pass at its own first
   branch runs with only those first-branch tests, which are the same functions;
1. normalise ports once (validation at the boundary, :mod:`pram.engine.validate`; a register of
   another run, or of another machine, is refused there, and the fast path takes registers of
   the machine's run only);
2. check that no processor is listed twice, and check each array's ports against the model
   (:mod:`pram.engine.conflicts`; the slow path there names who met and resolves their writes);
3. read, everything before anything is written;
4. commit the writes;
5. account: one unit of time, and the step's processors, reads and writes, per phase too;
   a loop test (:class:`pram.loop.Until`, a read step the fast path leaves to this path) is
   charged as the read step it is, counted in ``Cost.loop_tests``, and answered with one
   bool, the bit "every cell read holds the value asked", instead of the values read: the
   control unit reads a cell, and the host learns one bit per test and nothing else (a
   batched machine answers each instance alike and, where its instances disagree, runs
   those that leave its path again in a pass of their own, :mod:`pram.engine.passes`).

The normalisation of phase 1 and the test of phase 2 of who met where take each shape's ports
(a single machine's, :mod:`pram.engine.validate` and :mod:`pram.engine.conflicts`; a batch's,
one row per instance, :mod:`pram.engine.checks`), both resolving by
:func:`pram.engine.conflicts.resolve`. The bounds check of phase 1 and phases 3 to 5 are written
once, over memory with an instance axis (a batch's ``(size, B)`` columns,
:func:`pram.engine.instances._columns`), which a single machine's memory lacks: its one row
goes through the same code by numpy's broadcasting (phases 3 and 4 in :mod:`pram.engine.cells`).

On a tracing machine (``Machine(trace=True)``) the recorder of :mod:`pram.trace` is called
twice per step, after phase 1 (it may refuse the step there, above its ceiling, before anything
changed) and after phase 5, and the fast path is off: the recorder reads the ports phase 1
normalises. Off, the cost is one attribute read per step.

Words: a *port* is one :class:`pram.Read` or :class:`pram.Write` of a step (one index per
processor); an *access* is one processor's read or write of one cell through a port; a
processor's *rank* is its position among all processors of the global step; the *fast path*
is phase 0, switched off with ``Machine(fast_path=False)`` (no result changes, only which
tests run: tests/test_fast_path.py runs both ways and compares everything).

The numpy passes over a port's processors in a conflict-free step, each one needed: the
order test (one comparison of neighbours and one count, at most once per index array in a
step: ascending indices are in range when their first and last are, and are distinct); the
bounds check of indices out of order (one argmax; ports of at most 24 cells are checked in
Python instead); the conflict test (one scatter of ranks per port, one gather and one
comparison for each port but the last; only for the ports the model checks, none for a lone
ascending port or ascending ports whose ranges are disjoint, and a Python dict for at most 24
accesses to an array); the read (one gather) or the write (one scatter); and, with a
``where`` mask, one compression each of the indices, the values written and the ranks tested,
plus the read's expansion. Once per global step, the check that no processor is listed twice
(on by default) costs nothing for the ids :meth:`pram.Machine.processors` handed out
(immutable and ascending), the order test for other ascending ids, and otherwise one scatter,
one gather and one comparison of ranks (a Python set for at most 24 processors).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pram._held import cells_of as _cells_of
from pram._held import cost_of as _cost_of
from pram._held import put_cells as _put_cells
from pram._held import put_defined as _put_defined
from pram._held import raw_of as _raw_of
from pram._held import recorder_of as _recorder_of
from pram._held import resolutions_of as _resolutions_of
from pram._held import violations_of as _violations_of
from pram._numpy import np
from pram.cost import Cost
from pram.engine import conflicts, instances, refusals, validate
from pram.engine.cells import ReadAndCommit, _settle
from pram.engine.checks import Checks
from pram.engine.fast import FastPath, in_range
from pram.engine.memo import Scratch, StepMemo
from pram.engine.passes import Passes
from pram.engine.refusals import refuse_array
from pram.engine.rows import chosen_rows
from pram.engine.validate import Port
from pram.engine.views import BatchPort
from pram.loop import Until, is_test
from pram.memory import Array, Flags, Words
from pram.models import Model
from pram.registers import Register
from pram.registers.ids import Chosen
from pram.run import Run
from pram.step import Read, Step, Values, Write


class Host(Protocol):
    """What the engine reads of the machine it runs for (:class:`pram.Machine`); its ledger
    and records sit in slots no name reaches (:class:`pram._held.HeldRecord`)."""

    model: Model
    mode: Literal["collect", "raise"]
    strict: bool
    distinct_processors: bool
    fast_path: bool
    arrays: dict[str, Array]
    _seed: int
    _token: Run | None


class Engine(FastPath, Checks, ReadAndCommit):
    """Executes global steps for one machine, or for a batch's instances at once, and keeps
    what its steps reuse."""

    #: ``batch``: the instances (None: a single machine, no instance axis); ``passes``: a
    #: batch's ledgers, loop-test passes and records of its run (None on a single machine).
    __slots__ = ("_random", "batch", "host", "passes", "scratch")

    def __init__(self, host: Host, batch: int | None = None) -> None:
        self.host = host
        self.batch = batch
        self.scratch = Scratch()
        self._random: np.random.Generator | None = None  # made at the first random choice
        self.opened = None
        self._plans = {}
        self._seen = {}
        self.passes = None if batch is None else Passes(host, batch)  # type: ignore[arg-type]

    # ---- the instance axis ----------------------------------------------------------------
    # What the machine asks its engine about memory, ledgers and runs, so that it holds no
    # branch for batches: a batch's passes answer the same questions for its instances.

    @property
    def alive(self) -> Flags | None:
        """The instances taking steps (None: all, as one machine's one always)."""
        passes = self.passes
        return None if passes is None else passes.alive

    @property
    def idle_charge_free(self) -> bool:
        """Whether :meth:`charge_local` changes nothing when the token holds no operation and
        no share charged (the driver then skips the call: local and max_local add 0, and
        ``_charged`` stays 0); a batch's ledgers see each step."""
        return self.passes is None

    def allocated(self, name: str, array: Array) -> Array:
        """The array the machine keeps under ``name`` for the new ``array``: itself, or a
        batch's (:meth:`pram.engine.passes.Passes.allocated`)."""
        passes = self.passes
        return array if passes is None else passes.allocated(name, array)

    def release(self, array: Array) -> None:
        """Release the cells of ``array``, just freed (a batch's as its run ends)."""
        passes = self.passes
        if passes is not None:
            passes.release(array)
            return
        _put_cells(array, np.zeros(0, dtype=_cells_of(array).dtype))
        _put_defined(array, None)

    def costs(self, cost: Cost) -> tuple[Cost, ...]:
        """Every instance's ledger: the machine's one, or a batch's."""
        passes = self.passes
        return (cost,) if passes is None else passes.costs(cost)

    def cost(self, cost: Cost) -> Cost:
        """The ledger ``m.cost`` shows after a run: the machine's one (a batch's: its
        instances', when the same for all)."""
        passes = self.passes
        return cost if passes is None else passes.cost(cost)

    def run(self, program: Any, drive: Any) -> tuple[Any, tuple[Any, ...]]:
        """Drive ``program`` (with ``drive``, the machine's loop over its requests) to its
        end: its value, and the value of every instance (a batch's once per pass)."""
        passes = self.passes
        if passes is not None:
            return passes.run(program, drive)
        value = drive(program)
        return value, (value,)

    def charge_local(self, token: Run) -> None:
        """Charge the elementwise register operations done since the previous step (the
        ledger's ``local``: their total, and the most between two steps), and count afresh."""
        passes = self.passes
        if passes is not None:
            passes.charge_local(token)
            return
        cost = _cost_of(self.host)
        local = token._operations
        token._operations = 0
        token._charged = local  # the next step's phases take their share (phase_shares)
        cost.local += local
        if local > cost.max_local:
            cost.max_local = local

    def settle(self) -> None:
        """The run ended (or failed): nothing is held for later passes."""
        passes = self.passes
        if passes is not None:
            passes.settle()

    def execute(self, steps: Sequence[Step]) -> list[Values]:
        """Execute one global step made of ``steps`` (one per parallel branch) in every
        instance taking steps; see :meth:`pram.Machine.execute`."""
        host = self.host
        recorder = _recorder_of(host)
        passes = self.passes
        alive = None if passes is None else passes.alive
        # 0. The fast path: the usual step, with the first-branch tests of the phases below
        # (off while tracing: the recorder reads the ports phase 1 normalises); a step it
        # took before and planned, yielded again, by its plan. A batch's: the same tests on
        # the indices every instance shares (pram.engine.instances._fast).
        memo = StepMemo()
        if passes is not None:
            fast = instances._fast(self, steps, memo, alive) if host.fast_path else None
            if fast is not None:
                return fast
        elif host.fast_path and recorder is None:
            if len(steps) == 1:
                step = steps[0]
                plan = self._plans.get(id(step))
                if plan is not None and plan[0] is step:
                    fast = self._planned(step, plan)
                    if fast is not None:
                        return fast
                fast = self._fast_one(step, memo)
            else:
                fast = self._fast(steps, memo)
            if fast is not None:
                return fast
        number = _cost_of(host).time + 1
        # 1. Normalise ports: validate each port once, as words of the processors acting, and
        # check its indices in range.
        ports: list[Any] = []
        members: Any = None
        if passes is None:
            ranked = 0
            for branch, step in enumerate(steps):
                ranked = self._ports(step, branch, ranked, number, ports, memo)
            actors: list[Any] = [len(step.processors) for step in steps]
        else:
            ports, ranked, actors, members = self._normalise(steps, number, alive)
            for port in ports:
                self._check_bounds(port, number, memo)
        if recorder is not None:  # refused here above the trace's ceiling, before any change
            recorder.begin(number, steps, ports, len(_violations_of(host)))
        # 2. Check: no processor listed twice, and each array's ports against the model.
        if host.distinct_processors:
            if passes is not None and any(chosen_rows(s.processors) is not None
                                          for s in steps):
                self._check_chosen(steps, number)
            else:
                conflicts.check_processors(steps, ranked, number, memo, self.scratch)
        groups: dict[int, list[Any]] = {}
        for port in ports:
            groups.setdefault(id(port.array), []).append(port)
        # Writes resolved by the model, by array and instance, where two processors wrote a
        # cell.
        resolved: dict[int, dict[int, tuple[Words, Words]]] = {}
        for key, group in groups.items():
            settled = self._check(group, number, steps, ranked, memo) if passes is None \
                else self._met_and_resolved(group, ranked, alive, steps)
            if settled:
                resolved[key] = settled
        # 3. Read: every read sees memory as it was before the step.
        replies: list[list[Register]] = [[] for _ in steps]
        reads: list[Any] = [0] * len(steps)
        writes: list[Any] = [0] * len(steps)
        for port in ports:
            if not port.is_write:
                reads[port.branch] = reads[port.branch] + port.count()
                replies[port.branch].append(self._read(port, number))
        # 4. Commit: every write at once, resolved where two processors wrote one cell.
        for port in ports:
            if port.is_write:
                writes[port.branch] = writes[port.branch] + port.count()
                self._store(port, resolved.get(id(port.array)))
        for key, settled in resolved.items():
            array = groups[key][0].array
            for i, (cells, values) in settled.items():
                _settle(array, i, cells, values)
        # 5. Account.
        if passes is None and len(steps) == 1:
            self._account_one(steps[0], actors[0], reads[0], writes[0])
        else:
            self._account(steps, list(zip(actors, reads, writes, strict=True)), alive, members)
        answers: list[Any] = [tuple(reply) for reply in replies]
        tests = [branch for branch, step in enumerate(steps) if is_test(step)]
        if tests:  # a loop test: the program learns one bit, and it is counted
            if passes is None:
                for branch in tests:
                    answers[branch] = _answer(steps[branch], answers[branch])  # type: ignore[arg-type]
                    _cost_of(host).loop_tests += 1
            else:
                bits = passes.test([steps[b] for b in tests], [answers[b] for b in tests],
                                   alive, len(steps) == 1)
                for branch, bit in zip(tests, bits, strict=True):
                    answers[branch] = bit
        if recorder is not None:
            recorder.end(_cost_of(host), _violations_of(host))
        return answers

    # ---- 1. normalise ports ---------------------------------------------------------------

    def _ports(
        self, step: Step, branch: int, ranked: int, number: int, ports: list[Port],
        memo: StepMemo,
    ) -> int:
        """Validate ``step`` and append its ports; return the processors ranked so far."""
        pid = validate.processors_of(step, number)
        n = len(pid)
        reads, writes = step.reads, step.writes
        validate.this_run(reads, writes, number, self.host._token)
        refusals.accesses(reads, writes, number)
        for read in reads:
            refusals.read_object(read, number)
            array, index, where = self._access(step, read, (read.index, read.where), pid,
                                               number, "read")
            port = Port(step, branch, ranked, array, index, where, None)
            self._check_bounds(port, number, memo)
            ports.append(port)
        for write in writes:
            refusals.write_object(write, number)
            array, index, where = self._access(
                step, write, (write.index, write.value, write.where), pid, number, "write")
            value = validate.value(write.value, n, number, array, where, pid)
            port = Port(step, branch, ranked, array, index, where, value)
            self._check_bounds(port, number, memo)
            ports.append(port)
        return ranked + n

    def _access(
        self, step: Step, access: Read | Write, operands: tuple[Any, ...], pid: Words,
        number: int, verb: str,
    ) -> tuple[Array, Words, Flags | None]:
        """One read or write of ``step`` validated, as the same rules for both: its array
        this machine's, its ``where`` mask, for processors chosen by data the processors that
        hold all its ``operands``, and its indices (selected by the mask); returns the array,
        the indices and the mask."""
        n = len(pid)
        array = access.array
        if not self.owns(array):
            refuse_array(array, number)
        where = (
            None if access.where is None else validate.mask(access.where, n, number, array, pid)
        )
        if type(pid) is Chosen:
            where = _held(where, validate.presence(operands, pid))
        index = validate.address(access.index, n, number, array, where, pid, verb, step.phase)
        return array, index, where

    def _check_bounds(self, port: Port | BatchPort, number: int, memo: StepMemo) -> None:
        """Refuse an index outside the array (in the first instance, and by the first
        processor, that gave one); note whether the indices are strictly ascending.

        Indices every instance shares, all acting (one machine's always: its ports hold the
        processors acting), take the first-branch tests: ascending indices (the usual case:
        cells computed from processor ranks) are in range when the first and the last are,
        and are distinct, which spares the conflict test its scatter and gather.
        """
        index, array = port.index, port.array
        size = array.size
        acting = port.acting
        if acting is None and index.ndim == 1:
            if len(index) <= conflicts.SMALL:
                cells = index.tolist()  # a few cells: Python is quicker than a numpy call
                if not cells or (min(cells) >= 0 and max(cells) < size):
                    return
            elif in_range(index, array, memo):
                port.ascending = True
                return
            else:
                # A negative index viewed as unsigned is larger than any size; argmax finds
                # the largest without a ufunc reduction's fixed cost.
                unsigned = index.view(np.uint64)
                if unsigned.item(unsigned.argmax()) < size:
                    return  # in range but not ascending (ascending and in range passed above)
            outside = (index < 0) | (index >= size)
        else:
            if not index.size:
                return
            outside = (index < 0) | (index >= size)
            if acting is not None:
                outside = outside & acting
            if not outside.any():
                return
        i, bad = (int(x) for x in np.argwhere(outside.reshape(-1, outside.shape[-1]))[0])
        cell = int(index[bad] if index.ndim == 1 else index[i, bad])
        step, instance = self._when(i, number)
        refusals.outside(int(port.processors[bad]), "write" if port.is_write else "read",
                         array, cell, step, port.step.phase, instance=instance)

    # ---- 2. check -------------------------------------------------------------------------

    def _check(
        self, group: list[Port], number: int, steps: Sequence[Step], ranked: int,
        memo: StepMemo,
    ) -> dict[int, tuple[Words, Words]] | None:
        """Check one array's ports against the model; return the writes resolved (of the one
        instance) if they clash."""
        host = self.host
        checks_reads = host.model.checks_reads
        if len(group) == 1:
            only = group[0]
            if only.ascending or len(only.index) < 2 or not (only.is_write or checks_reads):
                return None  # one port to the array, its cells distinct (or not checked)
        checked = [p for p in group if p.is_write or checks_reads]
        total = 0
        for port in checked:
            total += len(port.index)
        if total < 2:
            return None
        if total <= conflicts.SMALL:
            key = tuple((id(p.index), p.rank, id(p.where)) for p in checked)
            distinct = memo.distinct.get(key)
            if distinct is None:
                distinct = memo.distinct[key] = conflicts.few_distinct_cells(checked)
        else:
            distinct = conflicts.distinct_cells(
                [(p.index, p.rank, p.where) for p in checked], checked[0].array.size, ranked,
                memo, self.scratch, each_ascending=all(p.ascending for p in checked),
                last_ascending=checked[-1].ascending,
            )
        if distinct:
            return None
        outcome = conflicts.resolve(
            group, number, steps, host.model, host.mode == "raise", _violations_of(host),
            self._generator, _resolutions_of(host),
        )
        return None if outcome is None else {0: outcome}

    def _generator(self) -> np.random.Generator:
        """The machine's random choices (CRCW arbitrary), seeded, made at the first."""
        if self._random is None:
            self._random = np.random.default_rng(self.host._seed)
        return self._random

def _held(where: Flags | None, held: Flags | None) -> Flags | None:
    """A port's ``where`` mask narrowed to the processors that hold its operands."""
    if held is None:
        return where
    return held if where is None else where & held


def _answer(test: Until, values: Values) -> bool:
    """The one bit the program is sent for ``test``: every cell read holds its value. The
    engine's alone, under a private name: as a method of the step, or a public function, it
    would let a program turn any register into a bool without a step
    (``Until(...).answer((x > 900,))``, ``pram.loop.answer(...)``)."""
    (read,) = values
    return bool(np.all(_raw_of(read) == test.value))  # the machine's own reply, in the run
