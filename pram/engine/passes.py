"""The passes of a batched run, and its loop tests: :class:`Passes`, what the engine
(:class:`pram.engine.core.Engine`) holds and asks when its machine has an instance axis (B
instances): their ledgers, their random generators, and the run's passes.

A loop test whose instances disagree parks the instances leaving the batch's path
(:mod:`pram.engine.parking`): they idle, and rejoin the batch where it leaves the loop as
they did, when the program's state there is theirs. Those that cannot rejoin run in a pass
of their own, from the run's start (:mod:`pram.engine.remake`); each such pass is checked to
retrace its instances' path up to their departure.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._held import cells_of as _cells_of
from pram._held import cost_of as _cost_of
from pram._held import defined_of as _defined_of
from pram._held import put_cells as _put_cells
from pram._held import put_cost as _put_cost
from pram._held import put_defined as _put_defined
from pram._held import put_failure as _put_failure
from pram._held import put_ledger as _put_ledger
from pram._held import put_resolutions as _put_resolutions
from pram._held import put_undefined_reads as _put_undefined_reads
from pram._held import put_violations as _put_violations
from pram._held import raw_of as _raw_of
from pram._held import resolutions_of as _resolutions_of
from pram._held import undefined_reads_of as _undefined_reads_of
from pram._held import violations_of as _violations_of
from pram._numpy import np
from pram.cost import Cost, Ledger, split_clocks
from pram.engine import strays as _strays
from pram.engine.ledgers import Ledgers
from pram.engine.parking import Parked
from pram.engine.remake import remaker
from pram.engine.rows import chosen_rows, merge_rows, records_of
from pram.engine.views import (
    Pass,
    Start,
)
from pram.errors import (
    InputError,
)
from pram.memory import Array, Flags
from pram.step import Values

if TYPE_CHECKING:
    from pram.machine import Machine
    from pram.run import Run

Counts = npt.NDArray[np.int64]


__all__ = ["Passes"]


class Passes:
    """What the engine holds for a batch: its ledgers, random generators, passes and loop
    tests."""

    def __init__(self, host: Machine, batch: int) -> None:
        self.host = host
        self.batch = batch
        self.ledgers = Ledgers(batch)
        #: The instances taking steps (None: all); the others left the pass's path at a loop
        #: test (they idle, and a later pass runs them), or are not the pass's.
        self.alive: Flags | None = None
        self._random: list[np.random.Generator | None] = [None] * batch
        #: Every instance's ``memory_cells`` and ``peak_cells`` once passes of a run
        #: allocated differently (None while they are the machine's for every instance).
        self.sizes: tuple[Counts, Counts] | None = None
        #: The instances of the pass running (None: the first pass, every instance).
        self.group: Flags | None = None
        #: The loop tests of the pass so far (to name one in a refusal).
        self.tests = 0
        #: Groups of instances that left a pass's path and cannot rejoin it, each waiting
        #: for its pass, with the path its first instance took to its departure (see
        #: :attr:`expected`).
        self.pending: list[tuple[Flags, _strays.Expected]] = []
        #: Groups of instances parked at a loop test, waiting to rejoin the pass
        #: (:mod:`pram.engine.parking`).
        self.parked: list[Parked] = []
        #: The program of the pass running (whose state a parked group compares with its
        #: own where it would rejoin).
        self.root: Any = None
        #: Every instance's path through the pass's loop tests so far (a later pass must
        #: retrace its group's).
        self.trail = _strays.Trail(batch)
        #: The path the pass running must retrace, its first instance's in the pass it left
        #: up to its departure (None in the first pass).
        self.expected: _strays.Expected | None = None
        #: The instance whose path the pass running retraces: its group's first.
        self.first = 0
        #: Arrays a pass of the run allocated, by name (a later pass allocating the name
        #: again with the same size gets the same array).
        self.made: dict[str, Array] = {}
        #: Arrays freed during the run (their cells are kept until it ends: a later pass
        #: may need the rows of its instances).
        self.freed: list[Array] = []
        self._start: Start | None = None
        self._passes: list[Pass] = []
        self._remake: Callable[[], Any] | None = None
        self._unmade = ""


    # ---- passes of a run -------------------------------------------------------------------

    def begin(self, program: Any) -> None:
        """A run starts (its memory sealed, its ledger fresh): keep how to make ``program``
        again and what the run starts from, for passes the instances may need."""
        self._remake, self._unmade = remaker(program)
        self._start = Start(self.host, self, self._remake is not None)
        self._passes = []
        self.pending = []
        self.made = {}
        self.freed = []
        self.group = None
        self.alive = None
        self.tests = 0
        self.trail, self.expected, self.parked = _strays.Trail(self.batch), None, []

    def next_pass(self) -> Any:
        """The pass that ran ended: the program for the next pass (its instances' rows of
        memory, ledgers, records and random generators restored to the run's start, every
        other instance inert), or None when every instance has finished."""
        if self.expected is not None and self.trail.taken[self.first] < self.expected[0]:
            _strays.astray(self, "ended")
        for parked in self.parked:  # the run ended before their loop did in the batch
            self._pend(parked)
        self.parked = []
        finished = np.ones(self.batch, np.bool_) if self.alive is None else self.alive.copy()
        self._passes.append(Pass(finished, self))
        if not self.pending:
            return None
        group, self.expected = self.pending.pop(0)
        self.trail, self.first = _strays.Trail(self.batch), int(np.flatnonzero(group)[0])
        host, start = self.host, self._start
        assert start is not None and self._remake is not None
        host.arrays = dict(start.arrays)
        for array, cells, defined in start.cells:
            array._freed, array._sealed = False, True
            _cells_of(array)[group] = cells[group]
            flags = _defined_of(array)
            if defined is not None and flags is not None:
                flags[group] = defined[group]
        _put_cost(host, start.cost.fresh())
        _put_ledger(host, Ledger(_cost_of(host)))
        kept = start.records
        _put_violations(host, records_of(_violations_of(host), kept[0], group))
        _put_resolutions(host, records_of(_resolutions_of(host), kept[1], group))
        _put_undefined_reads(host, records_of(_undefined_reads_of(host), kept[2], group))
        host._next_processor = start.processors
        host._alive_cells = start.alive_cells
        _put_failure(host, None)
        host._modular = 0
        for i in np.flatnonzero(group).tolist():
            if i in start.random:  # else the run drew nothing for it: its generator as found
                made = start.random[i]
                self._random[i] = None if made is None else copy.deepcopy(made)
        self.ledgers = start.ledgers.copy(steps=start.steps)
        self.group, self.alive, self.tests = group, group.copy(), 0
        return self._remake()

    def allocated(self, name: str, array: Array) -> Array:
        """The array the machine keeps under ``name`` for the new ``array``: during a run,
        :meth:`_in_run`'s; between runs ``array`` itself, every instance's sizes grown."""
        if self.host._running:
            return self._in_run(name, array)
        self.grown(array.size, self.host._alive_cells + array.size)
        return array

    def _in_run(self, name: str, array: Array) -> Array:
        """``array`` just allocated by a run's program under ``name``: in a later pass, the
        array an earlier pass allocated under that name, if of the same size, shape and
        dtype, with the pass's rows reset to the new one's (so the arrays a run leaves are
        one object per name for every instance)."""
        earlier = self.made.get(name)
        group = self.group
        if group is not None:  # an array an earlier pass left under the name: the same size
            for done in self._passes:
                left = done.arrays.get(name)
                if left is not None and (left.size, left.shape, left.dtype) != (
                        array.size, array.shape, array.dtype):
                    _strays.apart_sizes(self, name, left, array)
        self.made[name] = array
        if group is None or earlier is None or earlier is array or (
                earlier.size, earlier.shape, earlier.dtype) != (
                array.size, array.shape, array.dtype) or _cells_of(earlier).shape != \
                _cells_of(array).shape:
            return array
        _cells_of(earlier)[group] = _cells_of(array)[group]
        flags, kept = _defined_of(array), _defined_of(earlier)
        if flags is not None:
            if kept is None:
                kept = np.ones(_cells_of(earlier).shape, np.bool_, order="F")
                _put_defined(earlier, kept)
            kept[group] = flags[group]
        elif kept is not None:
            kept[group] = True
        earlier._freed, earlier._sealed = False, array._sealed
        self.made[name] = earlier
        return earlier

    def end(self) -> None:
        """The run's last pass ended: one set of ledgers from every pass's, each instance's
        sizes from its own pass, the arrays every pass left, the ids every pass handed out."""
        host, start, passes = self.host, self._start, self._passes
        assert start is not None
        if len(passes) > 1:
            self.ledgers = Ledgers.merged(
                self.batch, [(p.finished, p.ledgers) for p in passes], start.steps)
            first = passes[0]
            _put_cost(host, first.cost)
            _put_ledger(host, Ledger(first.cost))
            host._next_processor = max(p.processors for p in passes)
            arrays = dict(first.arrays)
            for later in passes[1:]:
                for name, array in later.arrays.items():
                    arrays.setdefault(name, array)
            host.arrays = arrays
            for array in arrays.values():
                array._freed = False
            host._alive_cells = sum(array.size for array in arrays.values())
            memory = np.zeros(self.batch, np.int64)
            peak = np.zeros(self.batch, np.int64)
            for p in passes:
                memory[p.finished] = p.cost.memory_cells
                peak[p.finished] = p.cost.peak_cells
            self.sizes = self._sizes(start, memory, peak)
        elif start.sizes is not None:
            cost = _cost_of(host)
            self.sizes = self._sizes(start, np.full(self.batch, cost.memory_cells, np.int64),
                                     np.full(self.batch, cost.peak_cells, np.int64))
        self.settle()

    def _sizes(self, start: Start, memory: Counts, peak: Counts
               ) -> tuple[Counts, Counts] | None:
        """Every instance's sizes after the run from those its pass counted (from the
        machine's at the run's start) and those it had before the run."""
        if start.sizes is not None:
            before, highest = start.sizes
            memory = memory + (before - start.cost.memory_cells)
            peak = np.maximum(peak, highest)
        if (memory == memory[0]).all() and (peak == peak[0]).all():
            return None
        return memory, peak

    def settle(self) -> None:
        """Forget the run's passes (as it ends, or fails), and release the cells of the
        arrays it freed."""
        for array in self.freed:
            if array.freed:
                _put_cells(array, np.zeros(0, dtype=_cells_of(array).dtype))
                _put_defined(array, None)
        for array in self.made.values():  # one a failed pass left out of the table too
            array._sealed = False
        for p in self._passes:
            split_clocks(p.cost, False)
        split_clocks(_cost_of(self.host), False)
        self._start, self._passes, self.pending = None, [], []
        self.trail, self.expected, self.parked, self.root = _strays.Trail(self.batch), None, \
            [], None
        self.made, self.freed = {}, []
        self.group, self.alive, self._remake = None, None, None

    def grown(self, cells: int, alive_cells: int) -> None:
        """The host allocated ``cells`` between runs (``alive_cells`` alive now): every
        instance's sizes grow alike."""
        if self.sizes is not None:
            memory, peak = self.sizes
            self.sizes = memory + cells, np.maximum(peak, alive_cells)

    def costs(self, cost: Cost) -> tuple[Cost, ...]:
        """Every instance's ledger (the machine's ``cost`` gives the sizes, unless passes of
        a run allocated differently)."""
        if self.sizes is None:
            return self.ledgers.costs(cost.memory_cells, cost.peak_cells)
        memory, peak = self.sizes
        return self.ledgers.costs(memory.tolist(), peak.tolist())

    # ---- what the machine asks its engine (pram.engine.core.Engine answers for one) --------

    def release(self, array: Array) -> None:
        """Release the cells of ``array``, just freed: at once between runs; during one, as
        the run ends (a later pass may take them again)."""
        if self.host._running:
            self.freed.append(array)
        else:
            _put_cells(array, np.zeros(0, dtype=_cells_of(array).dtype))
            _put_defined(array, None)

    def cost(self, cost: Cost) -> Cost:
        """The ledger ``m.cost`` shows: the instances' one, when the same for all."""
        costs = self.costs(cost)
        if any(other != costs[0] for other in costs[1:]):
            raise InputError(
                f"the {self.batch} instances of this batched machine have "
                "different ledgers; read m.costs[i] for instance i"
            )
        return costs[0]

    def run(self, program: Any, drive: Any) -> tuple[Any, tuple[Any, ...]]:
        """Drive ``program`` with ``drive`` once per pass (one per distinct sequence of
        loop-test answers): the value, registers put together row by row from the passes,
        and every instance's value as its pass returned it."""
        self.begin(program)
        results: list[Any] = [None] * self.batch
        passes: list[tuple[Any, Flags | None]] = []
        while program is not None:
            self.root = program
            value = drive(program)
            mine = self.alive
            passes.append((value, mine))
            for i in range(self.batch) if mine is None else np.flatnonzero(mine).tolist():
                results[i] = value
            program = self.next_pass()
        self.end()
        value = passes[0][0] if len(passes) == 1 else merge_rows(passes, results[0])
        return value, tuple(results)

    #: The driver asks :meth:`charge_local` at every step (the ledgers see each step).
    idle_charge_free = False

    def charge_local(self, token: Run) -> None:
        """Charge the elementwise operations since the previous step to the instances
        taking steps."""
        self.ledgers.operations(token._operations, self.alive)
        token._operations = 0

    def test(self, tests: list[Any], values: list[Values], alive: Flags | None,
             alone: bool = False) -> list[bool]:
        """The loop tests of one global step in a batch, answered (:meth:`_answer`; the
        parked instances whose loop ended here too rejoin, when the step is ``alone``, the
        test only: :meth:`_rejoin`), and checked, in a later pass, against the path its
        first instance took in the pass it left: the same tests at the same step of its own
        with the same answers up to its departure, or the program made again is not the
        program that ran (:meth:`_astray`)."""
        bits = self._answer(tests, values, alive)
        if self.parked and alone:
            self._rejoin(tests[0], tuple(bits))
        return bits

    def _retrace(self, alive: Flags | None, ended: Any) -> None:
        """Every instance taking the loop test (``alive``) took it answered ``ended``: its
        path goes on; in a later pass, its first instance's is checked at its departure."""
        if self._remake is None:  # no later pass: nothing to retrace
            return
        self.trail.took(alive, ended)
        expected, first = self.expected, self.first
        if expected is not None and (alive is None or alive[first]) \
                and self.trail.taken[first] == expected[0]:
            found = (self.ledgers.time(first), tuple(ended[:, first].tolist()))
            if found != expected[2] or int(self.trail.marks[first]) != expected[1]:
                _strays.astray(self, "reached", expected[2], found)

    def _rejoin(self, step: Any, answer: tuple[bool, ...]) -> None:
        """The batch is sent ``answer`` at loop test ``step``: the parked groups sent the same
        answer at the same test, whose program's state here is theirs, take steps again."""
        alive = self.alive
        joined = False
        for parked in list(self.parked):
            if parked.rejoin(self.root, answer, step, self.host):
                alive = parked.flags.copy() if alive is None else alive | parked.flags
                self.parked.remove(parked)
                joined = True
        if joined:
            assert alive is not None
            self.alive = None if self.group is None and alive.all() else alive
            split_clocks(_cost_of(self.host), True)

    def _pend(self, parked: Parked) -> None:
        """``parked`` cannot rejoin the pass: it waits for a pass of its own (refused when the
        program cannot be made again), to retrace its first instance's path to its
        departure."""
        if self._remake is None:
            _strays.refuse(self, parked.step, parked.flags, parked.going, parked.tests,
                         parked.number)
        first = int(np.flatnonzero(parked.flags)[0])
        self.pending.append((parked.flags, self.trail.path(
            first, (self.ledgers.time(first), parked.answer))))

    def generator(self, i: int) -> np.random.Generator:
        """Instance ``i``'s random choices (CRCW arbitrary), seeded like a single machine's;
        as found at the run's start kept at its first draw of a run that a later pass may
        need to draw again."""
        made = self._random[i]
        start = self._start
        if start is not None and self._remake is not None and i not in start.random:
            start.random[i] = None if made is None else copy.deepcopy(made)
        if made is None:
            made = self._random[i] = np.random.default_rng(self.host._seed)
        return made

    def _answer(self, tests: list[Any], values: list[Values], alive: Flags | None
                ) -> list[bool]:
        """The loop tests of one global step in a batch (one per parallel branch that tests):
        each instance taking steps learns whether each of its loops ended.

        While they agree, the program is sent their answers. When they disagree, the batch
        follows those whose loops go on (answered False; of several tests, the instances
        answered False at the most tests first, in branch order) and is sent their answers;
        each other group of instances answered alike leaves the pass's path: parked (they
        idle from here on, uncharged), to rejoin where the batch is sent their answers at
        this test (:meth:`_rejoin`), or else to wait for a pass of its own
        (:meth:`next_pass`), which runs the program again from the run's start with only
        them, so that it goes their way here. A machine with an observer (it would see the
        steps of several passes), or a program that cannot be made again whose state here
        cannot be compared, is refused here (:class:`pram.BatchPathError`).
"""
        batch = self.batch
        ended = np.empty((len(tests), batch), np.bool_)
        for k, (step, (read,)) in enumerate(zip(tests, values, strict=True)):
            held = np.broadcast_to(_raw_of(read), (batch, _raw_of(read).shape[-1])) == step.value
            chosen = chosen_rows(step.processors)
            if chosen is not None:  # only the processors that chose themselves, per instance
                held = held | ~chosen  # (none chosen: every cell read holds it, vacuously)
            ended[k] = np.all(held, axis=1)
            self.ledgers.loop_tests.add(1, alive, batch)
            self.tests += 1
        self._retrace(alive, ended)
        if len(tests) == 1:  # the usual case, and its usual answer: every instance agrees
            mine = ended[0] if alive is None else ended[0][alive]
            if mine.all():
                return [True]
            if not mine.any():
                return [False]
        if alive is None:
            live = np.arange(batch)
            answered = ended.T
        else:
            live = np.flatnonzero(alive)
            answered = ended[:, live].T
        if (answered == answered[:1]).all():  # they agree (the usual case): one path
            return answered[0].tolist()  # type: ignore[no-any-return]
        paths = {tuple(row) for row in answered.tolist()}
        followed = min(paths, key=lambda path: (sum(path), path))

        def taking(path: tuple[bool, ...]) -> Flags:
            """The instances taking ``path`` at these tests."""
            flags = np.zeros(batch, np.bool_)
            flags[live] = (np.array(path) == answered).all(axis=1)
            return flags

        going = taking(followed)
        time = _cost_of(self.host).time
        for path in sorted(paths - {followed}):
            if self.host.observer is not None:
                _strays.refuse(self, tests[0], taking(path), going)
            parked = Parked(taking(path), path, self.root, tests[0], self.host,
                            (time, self.tests, going))
            if parked.state is None:  # it can never rejoin: a pass of its own
                self._pend(parked)
            else:
                self.parked.append(parked)
        self.alive = going
        return list(followed)
