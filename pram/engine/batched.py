"""Batched runs: many instances of one program in lockstep on one machine.

Under the honesty rules a program's host control flow cannot depend on data, so every honest
program takes the same steps, with the same processors, on every input of the same sizes.
``Machine(batch=B)`` runs B instances together: every array holds one row of cells per
instance, every register one row of values per instance (or one row shared by all, for
values computed from sizes), and each global step is one pass of numpy over all instances.
Python's cost is paid once per step for the whole batch.

Each instance is still its own PRAM: its own memory, its own ledger (:class:`Ledgers`), its
own violations, resolutions and undefined reads (each with its ``instance``), and its own
random choices (CRCW arbitrary: one generator per instance, seeded like a single machine's).
The counts of an instance equal those of a single run on its input, exactly; the differential
test (tests/test_batch.py) checks that on random programs under every model.

What differs between instances, and how the engine (:class:`BatchEngine`) takes it:

- indices, values and masks from registers (one row per instance), and processors chosen by
  data (``hold(pid, pid)[x > 4]``): a selection keeps the full width of the processors it was
  chosen from, with one row of flags per instance (the processors that chose themselves); a
  step taken by them counts, per instance, only those;
- a cell two processors met at: the step's accesses are tested for every instance at once, and
  only the instances in which two processors met go through the single machine's slow path
  (:func:`pram.engine.conflicts.resolve`), in one call with their cells side by side as one array's
  (under CRCW arbitrary one call per instance, each drawing its own random choices);
- loop tests (:class:`pram.Until`), in passes: under the honesty rules the host's control
  flow depends only on sizes and on the bits loop tests give it, so instances answered alike
  at every test so far are on one path. Where the instances taking steps disagree, the batch
  follows those whose loop goes on (answered False) and the program is sent False; the others
  leave the pass's path and idle from there on (no access, no charge, no local work, no
  record: :attr:`BatchEngine.alive`). When the program ends, each group that left runs in a
  pass of its own, from the start of the run, on the same machine, every other instance inert
  (:meth:`BatchEngine.next_pass`): the group's rows of memory, its ledgers, its random
  generators and its records are the run's start's again, the table of arrays too (an array
  allocated again under a name and size an earlier pass used is the same array), and the
  program is made again from its unstarted generator (:func:`remaker`). A group may split
  again. Each pass runs the host as a single run of any of its instances would, so every
  instance's counts, records, memory and answer (:attr:`pram.Machine.results`) equal its
  single run's for any loop, at the price of one pass per distinct sequence of answers (and,
  for every run, a copy of memory at its start). The program's own Python (a host list it
  appends to, a print) runs once per pass. A program that cannot be made again, or a machine
  with an observer (it would see several passes), is refused at the first disagreement
  (:class:`pram.BatchPathError`), never counted wrong. A later pass is checked against its
  group's path (:meth:`BatchEngine._test`: the same loop-test steps at the same time with the
  same answers up to its departure), which refuses a program whose remade generator does not
  retrace it (one made before ``m.run`` and held where the capture cannot see it). What a
  pass makes afresh: the program's code, closure cells, generator and iterator arguments; not
  any other argument or global object the program changes (a pass sees it as the pass before
  left it). An array a later pass allocates under a name an earlier pass left at its end with
  another size is refused (one array per name holds every instance). A loop test of
  processors chosen by data answers each instance over the processors that chose themselves.

A step whose processors would differ between instances in a way a batch cannot express does
not reach the engine: a host decision on data is refused by the registers. What is refused
here is named in the error, with the instance.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np
import numpy.typing as npt

from pram.cost import Cost, Ledger
from pram.engine import conflicts, validate
from pram.engine.core import in_range, phase_shares
from pram.engine.ledgers import Ledgers
from pram.engine.memo import Scratch, StepMemo
from pram.engine.remake import remaker
from pram.engine.rows import chosen_rows, merge_rows, root
from pram.engine.validate import refuse_array
from pram.engine.views import (
    BatchPort,
    Draw,
    InstancePort,
    InstanceRow,
    ManyPort,
    Pass,
    Start,
    Together,
    apart,
    no_choice,
)
from pram.errors import (
    BatchPathError,
    ConflictError,
    HonestyError,
    InputError,
    StepError,
    UndefinedReadError,
)
from pram.ids import Chosen, same_choice, same_processors
from pram.loop import is_test
from pram.memory import WORD, Array, Flags, Words
from pram.models import Arbitrary
from pram.registers import THROUGH_MEMORY, Register
from pram.step import Read, Step, Values, Write
from pram.violations import UndefinedRead

if TYPE_CHECKING:
    from pram.machine import Machine
    from pram.run import Run

Counts = npt.NDArray[np.int64]

__all__ = ["BatchEngine"]


class BatchEngine:
    """Executes global steps for a batched machine: every instance in one pass."""

    def __init__(self, host: Machine, batch: int) -> None:
        self.host = host
        self.batch = batch
        self.ledgers = Ledgers(batch)
        self.scratch = Scratch()
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
        #: Groups of instances that left a pass's path, each waiting for its pass, with the
        #: path it took to its departure (see :attr:`path`).
        self.pending: list[tuple[Flags, list[tuple[int, tuple[bool, ...]]]]] = []
        #: The pass's loop-test steps so far: the machine's time at each and the answers the
        #: program was sent (a later pass must retrace its group's to its departure).
        self.path: list[tuple[int, tuple[bool, ...]]] = []
        #: The path the pass running must retrace: its group's in the pass it left (empty
        #: in the first pass).
        self.expected: list[tuple[int, tuple[bool, ...]]] = []
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
        self.path, self.expected = [], []

    def next_pass(self) -> Any:
        """The pass that ran ended: the program for the next pass (its instances' rows of
        memory, ledgers, records and random generators restored to the run's start, every
        other instance inert), or None when every instance has finished."""
        if len(self.path) < len(self.expected):
            self._astray("ended")
        finished = np.ones(self.batch, np.bool_) if self.alive is None else self.alive.copy()
        self._passes.append(Pass(finished, self))
        if not self.pending:
            return None
        group, self.expected = self.pending.pop(0)
        self.path = []
        host, start = self.host, self._start
        assert start is not None and self._remake is not None
        host.arrays = dict(start.arrays)
        for array, cells, defined in start.cells:
            array._freed, array._sealed = False, True
            array._cells[group] = cells[group]
            if defined is not None and array._defined is not None:
                array._defined[group] = defined[group]
        host._cost = start.cost.fresh()
        host._ledger = Ledger(host._cost)
        kept = start.records
        host._violations = _kept(host._violations, kept[0], group)
        host._resolutions = _kept(host._resolutions, kept[1], group)
        host._undefined_reads = _kept(host._undefined_reads, kept[2], group)
        host._next_processor = start.processors
        host._alive_cells = start.alive_cells
        host._failure = None
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
                    self._apart_sizes(name, left, array)
        self.made[name] = array
        if group is None or earlier is None or earlier is array or (
                earlier.size, earlier.shape, earlier.dtype) != (
                array.size, array.shape, array.dtype) or earlier._cells.shape != \
                array._cells.shape:
            return array
        earlier._cells[group] = array._cells[group]
        if array._defined is not None:
            if earlier._defined is None:
                earlier._defined = np.ones(earlier._cells.shape, np.bool_, order="F")
            earlier._defined[group] = array._defined[group]
        elif earlier._defined is not None:
            earlier._defined[group] = True
        earlier._freed, earlier._sealed = False, array._sealed
        self.made[name] = earlier
        return earlier

    def _apart_sizes(self, name: str, earlier: Array, array: Array) -> NoReturn:
        """Refuse ``array``, allocated under ``name`` in a later pass with another size,
        shape or dtype than ``earlier``, the array an earlier pass left under that name as it
        ended (the run leaves one array per name; one a pass freed is no obstacle)."""
        assert self.group is not None
        found = np.flatnonzero(self.group).tolist()
        named = ", ".join(map(str, found[:8])) + (", ..." if len(found) > 8 else "")
        raise BatchPathError(
            f"m.array({name!r}) in the pass of instances {named} (run again from the start "
            f"after they left the batch's path at a loop test) has {_described(array)}, "
            "where an earlier pass of the run left it with "
            f"{_described(earlier)}: a batch holds one array per name for all its "
            "instances; size the array from the inputs (the largest size any instance may "
            "need), give it a name per size, or run one machine per instance",
            self.host._cost.time)

    def end(self) -> None:
        """The run's last pass ended: one set of ledgers from every pass's, each instance's
        sizes from its own pass, the arrays every pass left, the ids every pass handed out."""
        host, start, passes = self.host, self._start, self._passes
        assert start is not None
        if len(passes) > 1:
            self.ledgers = Ledgers.merged(
                self.batch, [(p.finished, p.ledgers) for p in passes], start.steps)
            first = passes[0]
            host._cost = first.cost
            host._ledger = Ledger(first.cost)
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
            cost = host._cost
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
                array._cells = np.zeros(0, dtype=array._cells.dtype)
                array._defined = None
        for array in self.made.values():  # one a failed pass left out of the table too
            array._sealed = False
        self._start, self._passes, self.pending = None, [], []
        self.path, self.expected = [], []
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
            array._cells = np.zeros(0, dtype=array._cells.dtype)
            array._defined = None

    def cost(self, cost: Cost) -> Cost:
        """The ledger ``m.cost`` shows: the instances' one, when the same for all."""
        costs = self.costs(cost)
        if any(other != costs[0] for other in costs[1:]):
            raise InputError(
                f"the {self.batch} instances of this batched machine have "
                "different ledgers; read m.costs[i] for instance i"
            )
        return costs[0]

    def replace(self, cost: Cost) -> None:
        """Refuse ``m.cost = ...``: a batch's ledgers are counted per instance."""
        raise InputError(
            "m.cost = ... on a batched machine: its ledgers are counted per instance "
            "(m.costs); make a fresh Machine(batch=...) to count from zero"
        )

    def run(self, program: Any, drive: Any) -> tuple[Any, tuple[Any, ...]]:
        """Drive ``program`` with ``drive`` once per pass (one per distinct sequence of
        loop-test answers): the value, registers put together row by row from the passes,
        and every instance's value as its pass returned it."""
        self.begin(program)
        results: list[Any] = [None] * self.batch
        passes: list[tuple[Any, Flags | None]] = []
        while program is not None:
            value = drive(program)
            mine = self.alive
            passes.append((value, mine))
            for i in range(self.batch) if mine is None else np.flatnonzero(mine).tolist():
                results[i] = value
            program = self.next_pass()
        self.end()
        value = passes[0][0] if len(passes) == 1 else merge_rows(passes, results[0])
        return value, tuple(results)

    def charge_local(self, token: Run) -> None:
        """Charge the elementwise operations since the previous step to the instances
        taking steps."""
        self.ledgers.operations(token._operations, self.alive)
        token._operations = 0

    # ---- the step --------------------------------------------------------------------------

    def execute(self, steps: Sequence[Step]) -> list[Values]:
        """Execute one global step of every instance taking steps; see
        :meth:`pram.Machine.execute`."""
        host = self.host
        number = host._cost.time + 1
        alive = self.alive
        memo = StepMemo()
        # 0. The fast path: the usual step, shared indices (idle instances left untouched).
        fast = self._fast(steps, memo, alive)
        if fast is not None:
            return fast
        # 1. Normalise ports.
        ports: list[BatchPort] = []
        actors: list[int | Counts] = []
        ranked = 0
        for branch, step in enumerate(steps):
            pid = validate.processors_of(step, number)
            validate.this_run(step.reads, step.writes, number, host._token)
            validate.accesses(step.reads, step.writes, number)
            rows = chosen_rows(pid)
            plain: Words = pid.view(np.ndarray) if type(pid) is Chosen else pid
            actors.append(len(plain) if rows is None
                          else np.count_nonzero(rows, axis=1).astype(np.int64))
            for read in step.reads:
                validate.read_object(read, number)
                ports.append(self._port(step, branch, ranked, pid, plain, rows, read, None,
                                        number))
            for write in step.writes:
                validate.write_object(write, number)
                ports.append(self._port(step, branch, ranked, pid, plain, rows, write,
                                        write.value, number))
            ranked += len(plain)
        if alive is not None:  # an idle instance takes no access
            for port in ports:
                idle = np.broadcast_to(alive[:, None], (self.batch, len(port.pid)))
                port.where = idle if port.where is None else port.where & idle
        for port in ports:
            self._check_bounds(port, number)
        # 2. Check: no processor listed twice, and each array's ports against the model.
        if host.distinct_processors:
            if any(chosen_rows(s.processors) is not None for s in steps):
                self._check_chosen(steps, number)
            else:
                conflicts.check_processors(steps, ranked, number, memo, self.scratch)
        groups: dict[int, list[BatchPort]] = {}
        for port in ports:
            groups.setdefault(id(port.array), []).append(port)
        resolved: dict[int, dict[int, tuple[Words, Words] | None]] = {}
        for key, group in groups.items():
            met = self._met(group, ranked, alive)
            if met is not None:
                resolved[key] = self._resolve(group, met, steps)
        # 3. Read.
        replies: list[list[Register]] = [[] for _ in steps]
        reads: list[int | Counts] = [0] * len(steps)
        writes: list[int | Counts] = [0] * len(steps)
        for port in ports:
            if not port.is_write:
                reads[port.branch] = reads[port.branch] + port.count()
                replies[port.branch].append(self._read(port, number))
        # 4. Commit.
        for port in ports:
            if port.is_write:
                writes[port.branch] = writes[port.branch] + port.count()
                settled = resolved.get(id(port.array))
                self._store(port, None if settled is None else settled)
        for key, settled in resolved.items():
            array = groups[key][0].array
            for i, outcome in settled.items():
                if outcome is not None:
                    cells, values = outcome
                    array._cells[i, cells] = values
                    if array._defined is not None:
                        array._defined[i, cells] = True
        # 5. Account.
        self._account(steps, actors, reads, writes, alive)
        answers: list[Any] = [tuple(reply) for reply in replies]
        tests = [branch for branch, step in enumerate(steps) if is_test(step)]
        if tests:
            bits = self._test([steps[b] for b in tests], [answers[b] for b in tests], alive)
            for branch, bit in zip(tests, bits, strict=True):
                answers[branch] = bit
        return answers

    # ---- 0. the fast path ------------------------------------------------------------------

    def _fast(self, steps: Sequence[Step], memo: StepMemo, alive: Flags | None
              ) -> list[Values] | None:
        """Execute the global step if it is the usual one for every instance at once, or
        return None having changed nothing: the single machine's fast path (its tests, on
        the indices every instance shares), with values one row per instance.

        That is: word processor ids not chosen by data, distinct; no ``where`` masks; indices
        plain arrays or integers (shared by every instance), ascending and in range; values
        integers, plain arrays or registers of the step's processors; the checked ports into
        one array meeting at no cell; no undefined cell read. Every instance then takes the
        same accesses, so one test answers for all of them. Instances that idle (``alive``
        false) read what their rows hold (values no count, record or memory of theirs sees:
        operations check only the rows of instances taking steps), write nothing and are not
        charged, as on the general path.
        """
        token = self.host._token
        for step in steps:
            if type(step) is not Step:
                return None
            who = step.processors
            if type(who) is not np.ndarray or who.dtype is not WORD or who.ndim != 1 \
                    or not len(who) or validate.too_many(step.reads, step.writes):
                return None
            n = len(who)
            for read in step.reads:
                if type(read) is not Read or read.where is not None or not _shared(
                        read.index, n):
                    return None
            for write in step.writes:
                if type(write) is not Write or write.where is not None or not _shared(
                        write.index, n):
                    return None
                value, held = write.value, write.array._cells.dtype
                if type(value) is Register:
                    if value._processors is not who or value._run is not token \
                            or value._values.dtype != held:
                        return None
                elif not (validate.word_constant(value) and held is WORD) and not (
                        type(value) is np.ndarray and value.dtype == held
                        and value.shape == (n,)):
                    return None
        host = self.host
        if host.distinct_processors and not conflicts.ids_distinct(steps, memo):
            return None
        checks_reads = host.model.checks_reads
        checked: dict[int, tuple[Array, list[conflicts.Cells]]] = {}
        ranked = 0
        arrays = host.arrays
        for step in steps:
            n = len(step.processors)
            for kind, checks in ((step.reads, checks_reads), (step.writes, True)):
                for port in kind:
                    array, index = port.array, port.index
                    if type(array) is not Array or arrays.get(array.name) is not array \
                            or len(getattr(array, "shape", ())) > 1:
                        return None  # a two-dimensional array: the general path
                    if type(index) is int:
                        if not 0 <= index < array.size or (n > 1 and checks):
                            return None  # one cell for all: the general path judges it
                        continue
                    if not _ascending_in(index, array, memo):  # type: ignore[arg-type]
                        return None
                    if checks:
                        checked.setdefault(id(array), (array, []))[1].append(
                            (index, ranked, None))  # type: ignore[arg-type]
            ranked += n
        for array, cells in checked.values():
            if len(cells) > 1 and not conflicts.distinct_cells(
                cells, array.size, ranked, memo, self.scratch,
                each_ascending=True, last_ascending=True,
            ):
                return None
        replies: list[Values] = []
        for step in steps:
            values = []
            for read in step.reads:
                array = read.array
                index = read.index if type(read.index) is not int else np.full(
                    len(step.processors), read.index, np.int64)
                if array._defined is not None:
                    known = _columns(array, "_defined").take(index, axis=0)
                    if not (known.all() if alive is None else known[:, alive].all()):
                        return None  # the general path reports the undefined cells
                values.append(index)
            replies.append(tuple(values))  # type: ignore[arg-type]
        answers: list[Values] = []
        for step, indices in zip(steps, replies, strict=True):
            taken = []
            for read, index in zip(step.reads, indices, strict=True):
                taken.append(Register(_columns(read.array, "_cells").take(index, axis=0).T,
                                      step.processors, token))  # type: ignore[arg-type]
            answers.append(tuple(taken))
        live = None if alive is None else np.flatnonzero(alive)
        for step in steps:
            for write in step.writes:
                columns = _columns(write.array, "_cells")
                value = write.value
                raw = value._values if type(value) is Register else value
                if live is not None:  # only the rows of the instances taking steps
                    if type(raw) is np.ndarray and raw.ndim == 2:
                        raw = raw[live]
                    to = write.index
                    target: Any = ((to[:, None] if type(to) is np.ndarray
                                   else np.array([[to]], np.int64)), live)
                else:
                    target = write.index
                columns[target] = raw.T if type(raw) is np.ndarray and raw.ndim == 2 \
                    else (raw[:, None] if type(raw) is np.ndarray else raw)
                if write.array._defined is not None:
                    _columns(write.array, "_defined")[target] = True
        actors = [len(s.processors) for s in steps]
        self._account(steps, actors,  # type: ignore[arg-type]
                      [n * len(s.reads) for n, s in zip(actors, steps, strict=True)],
                      [n * len(s.writes) for n, s in zip(actors, steps, strict=True)], alive)
        return answers

    # ---- 1. normalise ----------------------------------------------------------------------

    def _port(self, step: Step, branch: int, rank: int, pid: Words, plain: Words,
              rows: Flags | None, access: Read | Write, value: Any, number: int) -> BatchPort:
        array = access.array
        if type(array) is not Array or self.host.arrays.get(array.name) is not array:
            refuse_array(array, number)
        n = len(plain)
        where: Flags | None = rows
        if access.where is not None:
            mask, held = self._operand(access.where, pid, plain, "the where mask of an access to",
                                       array, number)
            if type(mask) is not np.ndarray or mask.dtype != np.bool_ \
                    or mask.shape[-1:] != (n,):
                validate.refuse_mask(mask, n, number, array)
            where = _and(_and(where, mask), held)
        shape: tuple[int, ...] = getattr(array, "shape", (array.size,))
        key: Any = access.index
        parts = key if type(key) is tuple else (key,)
        if (type(key) is tuple) != (len(shape) == 2) or len(parts) != len(shape):
            validate.refuse_key(array, number)
        axes = []
        for part in parts:
            index, held = self._operand(part, pid, plain, "the index into", array, number)
            where = _and(where, held)
            axes.append(self._cells_of(index, n, array, number))
        if len(axes) == 2:
            self._check_pair(axes[0], axes[1], shape, where, plain, array, step, number,
                             value is not None)
            index = axes[0] * shape[1] + axes[1]
        else:
            index = axes[0]
        if value is not None:
            # Words of the step's own processors written to reals stay words until stored,
            # as on a single machine (pram.engine.validate.value): the model judges and records
            # the values written, 1 not 1.0.
            words = (type(value) is Register and value._processors is pid) or \
                type(value) is np.ndarray
            value, held = self._operand(value, pid, plain, "the value written to", array,
                                        number)
            where = _and(where, held)
            value = self._value_of(value, n, array, number, words)
        return BatchPort(step, branch, rank, plain, array, index, where, value)

    @staticmethod
    def _cells_of(index: Any, n: int, array: Array, number: int) -> Words:
        """One index per processor (shared, or one row per instance) as words."""
        if isinstance(index, np.ndarray):
            if index.dtype.kind not in "iu" or index.shape[-1:] != (n,):
                validate.refuse_index(index, n, number, array)
            return index.astype(np.int64, copy=False)
        if isinstance(index, float):
            validate.refuse_index(index, n, number, array)
        return np.full(n, index, dtype=np.int64)

    @staticmethod
    def _value_of(value: Any, n: int, array: Array, number: int, words: bool = False) -> Any:
        """A port's values as the array's dtype: int64 words (reals refused, never cut) or
        float64 reals (integers taken as the reals they are; int64 words given as a register
        of the step's processors or a plain array, ``words``, kept as words until stored)."""
        real = array._cells.dtype == np.float64
        if isinstance(value, np.ndarray):
            if value.dtype.kind == "f" and not real:
                validate.reals_into_words(value, number, array)
            if value.dtype.kind not in ("iubf" if real else "iub") or value.shape[-1:] != (n,):
                kind = "a numeric" if real else "an integer"
                raise StepError(
                    f"value written to {array.name} in step {number} must be {kind} array of "
                    f"shape ({n},) or one {'number' if real else 'integer'} (got "
                    f"{validate.describe(value)})",
                    number,
                )
            if real and words and value.dtype == WORD:
                return value
            return value.astype(array._cells.dtype, copy=False)
        if isinstance(value, float):
            if not real:
                validate.reals_into_words(value, number, array)
            return value
        return float(value) if real else value

    def _check_pair(self, i: Words, j: Words, shape: tuple[int, ...], where: Flags | None,
                    pid: Words, array: Array, step: Step, number: int, write: bool) -> None:
        """Refuse a pair outside a two-dimensional array's shape, each axis on its own."""
        rows, columns = shape
        outside = (i < 0) | (i >= rows) | (j < 0) | (j >= columns)
        if where is not None:
            outside = outside & where
        if not outside.any():
            return
        full = np.broadcast_to(outside, (self.batch, outside.shape[-1]))
        k, bad = (int(x) for x in np.argwhere(full)[0])
        row = int(i[bad] if i.ndim == 1 else i[k, bad])
        column = int(j[bad] if j.ndim == 1 else j[k, bad])
        validate.outside_shape(int(pid[bad]), "write" if write else "read", array, row, column,
                                self.ledgers.time(k) + 1, step.phase, instance=k)

    def _operand(self, x: Any, pid: Words, plain: Words, what: str, array: Array,
                 number: int) -> tuple[Any, Flags | None]:
        """An index, value or mask as raw values (and, for a register of another selection of
        the step's processors, the flags of who holds it)."""
        if type(x) is Register:
            owners = x._processors
            if owners is pid:
                return x._values, None
            if (chosen_rows(owners) is not None and chosen_rows(pid) is not None \
                    and root(owners) is root(pid)) or (
                        chosen_rows(owners) is not None and chosen_rows(pid) is not None
                        and same_choice(root(owners), root(pid))):
                return x._values, chosen_rows(owners)
            if type(owners) is not Chosen and type(pid) is not Chosen \
                    and same_processors(owners, pid):
                return x._values, None
            raise HonestyError(
                f"{what} {array.name} in step {number} is a register of other processors than "
                f"the step's (or in another order); {THROUGH_MEMORY}"
            )
        if isinstance(x, np.ndarray):
            if type(pid) is Chosen:
                validate.opaque(x, pid, number, what, array)
            if x.ndim != 1:
                raise StepError(
                    f"{what} {array.name} in step {number} is a plain array of shape {x.shape}; "
                    "a batch shares plain arrays (computed from sizes) between its instances: "
                    "pass one entry per processor, and per-instance data through memory",
                    number,
                )
            return x, None
        if isinstance(x, float | np.floating) and array._cells.dtype == np.float64 \
                and what == "the value written to":
            return float(x), None
        if isinstance(x, int | np.integer) and not isinstance(x, bool):
            if not validate.word_constant(int(x)):
                if what == "the index into":
                    validate.too_wide_index(int(x), number, array)
                validate.too_wide(f"value written to {array.name}", int(x), number)
            return int(x), None
        raise StepError(
            f"{what} {array.name} in step {number} must be a register, an integer array or one "
            f"integer (got {validate.describe(x)})",
            number,
        )

    def _check_bounds(self, port: BatchPort, number: int) -> None:
        """Refuse an index outside the array, in the first instance (and by the first
        processor) that gave one."""
        index, size = port.index, port.array.size
        if not index.size:
            return
        outside = (index < 0) | (index >= size)
        if port.where is not None:
            outside = outside & port.where
        if not outside.any():
            return
        if outside.ndim == 1:
            outside = np.broadcast_to(outside, (self.batch, len(outside)))
        i, bad = (int(x) for x in np.argwhere(outside)[0])
        cell = int(index[bad] if index.ndim == 1 else index[i, bad])
        validate.outside(int(port.pid[bad]), "write" if port.is_write else "read", port.array,
                          cell, self.ledgers.time(i) + 1, port.step.phase, instance=i)

    # ---- 2. check --------------------------------------------------------------------------

    def _check_chosen(self, steps: Sequence[Step], number: int) -> None:
        """Refuse a processor listed twice among the processors acting in one instance, when
        some of them chose themselves by data (a batch keeps the full width of a selection,
        so the ids listed are compared only where they act)."""
        batch = self.batch
        ids = np.concatenate([s.processors.view(np.ndarray).astype(np.int64, copy=False)
                              for s in steps])
        acting = np.concatenate([
            np.ones((batch, len(s.processors)), np.bool_) if chosen_rows(s.processors) is None
            else chosen_rows(s.processors) for s in steps], axis=1)
        twice = _two_meet(np.broadcast_to(ids, acting.shape), np.zeros(len(ids), np.int64),
                          1, acting, same=True)
        if not twice.any():
            return
        i = int(np.flatnonzero(twice)[0])
        mine = np.sort(ids[acting[i]])
        pid = int(mine[np.flatnonzero(mine[1:] == mine[:-1])[0]])
        try:
            conflicts.acts_twice(pid, [s for s, a in zip(steps, np.split(
                acting[i], np.cumsum([len(s.processors) for s in steps])[:-1]), strict=True)
                if a.any()], number)
        except StepError as error:
            raise StepError(f"instance {i}: {error}", number, instance=i) from None

    def _met(self, group: list[BatchPort], ranked: int, alive: Flags | None) -> Flags | None:
        """The instances taking steps (``alive``, None: all) in which two processors met at a
        cell of ``group``'s array through the ports the model checks (None: in none).

        A step whose indices and masks every instance shares is tested once for all on the
        ports' own masks (the idle instances dropped from the answer), as when every
        instance takes steps; any other is tested row by row, the idle masked out."""
        checks_reads = self.host.model.checks_reads
        checked = [p for p in group if p.is_write or checks_reads]
        if sum(len(p.pid) for p in checked) < 2:
            return None
        shared = all(p.index.ndim == 1 and (p.own is None or p.own.ndim == 1)
                     for p in checked)
        if shared:
            cells = np.concatenate([p.index if p.own is None else p.index[p.own]
                                    for p in checked])
            ranks = np.concatenate([
                np.arange(p.rank, p.rank + len(p.pid)) if p.own is None
                else np.arange(p.rank, p.rank + len(p.pid))[p.own] for p in checked])
            if not _two_meet(cells[None, :], ranks[None, :], ranked)[0]:
                return None
            return np.ones(self.batch, dtype=np.bool_) if alive is None else alive.copy()
        cells2 = np.concatenate([np.broadcast_to(p.index, (self.batch, len(p.pid)))
                                 for p in checked], axis=1)
        ranks1 = np.concatenate([np.arange(p.rank, p.rank + len(p.pid)) for p in checked])
        acting = np.concatenate([
            np.ones((self.batch, len(p.pid)), np.bool_) if p.where is None
            else np.broadcast_to(p.where, (self.batch, len(p.pid))) for p in checked], axis=1)
        met = _two_meet(cells2, ranks1, ranked, acting)  # the idle masked out: no garbage
        return met if met.any() else None

    def _resolve(self, group: list[BatchPort], met: Flags, steps: Sequence[Step]
                 ) -> dict[int, tuple[Words, Words] | None]:
        """The single machine's slow path, for each instance in which two processors met:
        one call for all of them (their cells side by side, as one array's), unless each
        instance draws its own random choices (CRCW arbitrary)."""
        if not isinstance(self.host.model, Arbitrary):
            return self._resolve_together(group, met, steps)
        host = self.host
        settled: dict[int, tuple[Words, Words] | None] = {}
        array = group[0].array
        for i in np.flatnonzero(met).tolist():
            row = InstanceRow(array, i)
            ones = [InstancePort(p, i, row, None if p.where is None else
                         (p.where if p.where.ndim == 1 else p.where[i])) for p in group]
            found: list[Any] = []
            resolutions: list[Any] = []
            number = self.ledgers.time(i) + 1
            try:
                outcome = conflicts.resolve(
                    ones,  # type: ignore[arg-type]
                    number, steps, host.model, host.mode == "raise", found,
                    Draw(self, i), resolutions)
            except ConflictError as error:
                tagged = _tag(error.violation, i)
                host._violations.append(tagged)
                raise ConflictError(tagged) from None
            if outcome is not None:  # else every write lands as written
                settled[i] = outcome
            host._violations.extend(_tag(v, i) for v in found)
            host._resolutions.extend(_tag(r, i) for r in resolutions)
        return settled

    def _resolve_together(self, group: list[BatchPort], met: Flags, steps: Sequence[Step]
                          ) -> dict[int, tuple[Words, Words] | None]:
        """:meth:`_resolve` in one call: instance ``rows[j]``'s cell c is cell ``j * size +
        c`` of one array of the instances that met, so the slow path judges and settles
        each cell as in a single run (its records come in instance order, by cell within)."""
        host = self.host
        array = group[0].array
        size = array.size
        rows = np.flatnonzero(met)
        together = Together(array, rows)
        ports = [ManyPort(p, rows, size, self.batch, together) for p in group]
        found: list[Any] = []
        resolutions: list[Any] = []
        try:
            outcome = conflicts.resolve(
                ports,  # type: ignore[arg-type]
                host._cost.time + 1, steps, host.model, host.mode == "raise", found,
                no_choice, resolutions)
        except ConflictError as error:
            tagged = apart(error.violation, rows, size, self.ledgers)
            host._violations.append(tagged)
            raise ConflictError(tagged) from None
        host._violations.extend(apart(v, rows, size, self.ledgers) for v in found)
        host._resolutions.extend(apart(r, rows, size, self.ledgers) for r in resolutions)
        settled: dict[int, tuple[Words, Words] | None] = {}
        if outcome is None:
            return settled
        cells, values = outcome
        which = cells // size if size else np.zeros_like(cells)
        bounds = np.searchsorted(which, np.arange(len(rows) + 1))  # cells come sorted
        for j, i in enumerate(rows.tolist()):
            start, end = int(bounds[j]), int(bounds[j + 1])
            settled[i] = (cells[start:end] - j * size, values[start:end])
        return settled

    def _generator(self, i: int) -> np.random.Generator:
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

    # ---- 3. read, 4. commit ----------------------------------------------------------------

    def _read(self, port: BatchPort, number: int) -> Register:
        """The values read, one row per instance (0 where a processor does not act)."""
        array, index, where = port.array, port.index, port.where
        if array.size == 0:  # nothing can be read (an access would have been refused)
            values = np.zeros((self.batch, len(port.pid)), dtype=array._cells.dtype)
            return Register(values, port.step.processors, self.host._token)  # type: ignore[arg-type]
        if where is not None:
            index = np.where(where, index, 0)  # a processor that does not act reads nothing
        values = self._gather(_columns(array, "_cells"), index)
        if array._defined is not None:
            known = self._gather(_columns(array, "_defined"), index)
            unknown = ~known if where is None else ~known & where
            if unknown.any():
                self._undefined(port, unknown, index)
        if where is not None:
            values = np.where(where, values, 0)
        return Register(values, port.step.processors, self.host._token)  # type: ignore[arg-type]

    def _gather(self, columns: npt.NDArray[Any], index: Words) -> npt.NDArray[Any]:
        """``(batch, n)`` cells of ``columns`` (the ``(size, batch)`` memory): by a shared
        index, n runs of ``batch`` words; by one index
        per instance, one word each."""
        if index.ndim == 1:
            return columns.take(index, axis=0).T
        batch = self.batch
        flat = index * batch + np.arange(batch, dtype=np.int64)[:, None]
        return columns.reshape(-1).take(flat)

    def _undefined(self, port: BatchPort, unknown: Flags, index: Words) -> None:
        host = self.host
        unknown = np.broadcast_to(unknown, (self.batch, unknown.shape[-1]))
        shape: tuple[int, ...] = getattr(port.array, "shape", ())
        columns = shape[1] if len(shape) == 2 else 0  # a cell named by pair, as on one machine
        for i in np.flatnonzero(unknown.any(axis=1)).tolist():
            row = index if index.ndim == 1 else index[i]
            for j in np.flatnonzero(unknown[i]).tolist():
                record = UndefinedRead(self.ledgers.time(i) + 1, port.step.phase,
                                       port.array.name, int(row[j]), int(port.pid[j]),
                                       columns, instance=i)
                if host.strict:
                    raise UndefinedReadError(
                        record.message, step=record.step, array=record.array,
                        index=record.index, processor=record.processor, instance=i,
                    )
                host._undefined_reads.append(record)

    def _store(self, port: BatchPort, settled: dict[int, Any] | None) -> None:
        """Write ``port``'s values in every instance whose writes to the array were not
        resolved by the model (those are stored from the resolution)."""
        array, index, where = port.array, port.index, port.where
        value: Any = port.value
        if settled:
            keep = np.ones(self.batch, dtype=np.bool_)
            keep[list(settled)] = False
            kept = np.broadcast_to(keep[:, None], (self.batch, len(port.pid)))
            where = kept if where is None else where & kept
        cells, defined = _columns(array, "_cells"), _columns(array, "_defined")
        if where is None and index.ndim == 1:
            target = index
            cells[target] = value.T if isinstance(value, np.ndarray) and value.ndim == 2 \
                else (value[:, None] if isinstance(value, np.ndarray) else value)
            if defined is not None:
                defined[target] = True
            return
        batch, n = self.batch, index.shape[-1]
        flat = index * batch + np.arange(batch, dtype=np.int64)[:, None]
        full = np.broadcast_to(np.asarray(value, dtype=cells.dtype), (batch, n))
        if where is not None:
            acting = np.broadcast_to(where, (batch, n))
            flat, full = flat[acting], full[acting]
        cells.reshape(-1)[flat] = full
        if defined is not None:
            defined.reshape(-1)[flat] = True

    # ---- 5. account, and loop tests --------------------------------------------------------

    def _account(self, steps: Sequence[Step], actors: list[int | Counts],
                 reads: list[int | Counts], writes: list[int | Counts],
                 alive: Flags | None) -> None:
        n: int | Counts = 0
        r: int | Counts = 0
        w: int | Counts = 0
        for pn, pr, pw in zip(actors, reads, writes, strict=True):
            n, r, w = n + pn, r + pr, w + pw
        shares = phase_shares(steps, list(zip(actors, reads, writes, strict=True)))
        labels = (steps[0].phase,) if len(steps) == 1 else tuple(sorted({s.phase for s in steps}))
        self.ledgers.charge(_int(n), _int(r), _int(w), alive, labels,
                            {k: [_int(x) for x in v] for k, v in shares.items()})
        self.host._cost.time += 1

    def _test(self, tests: list[Any], values: list[Values], alive: Flags | None
              ) -> list[bool]:
        """The loop tests of one global step in a batch, answered (:meth:`_answer`), and
        checked, in a later pass, against the path its group took in the pass it left: the
        same tests at the same step with the same answers up to its departure, or the
        program made again is not the program that ran (:meth:`_astray`)."""
        bits = self._answer(tests, values, alive)
        if self._remake is None:  # no later pass: nothing to retrace
            return bits
        step = (self.host._cost.time, tuple(bits))
        k = len(self.path)
        self.path.append(step)
        if k < len(self.expected) and self.expected[k] != step:
            self._astray("reached", self.expected[k], step)
        return bits

    def _answer(self, tests: list[Any], values: list[Values], alive: Flags | None
                ) -> list[bool]:
        """The loop tests of one global step in a batch (one per parallel branch that tests):
        each instance taking steps learns whether each of its loops ended.

        While they agree, the program is sent their answers. When they disagree, the batch
        follows those whose loops go on (answered False; of several tests, the instances
        answered False at the most tests first, in branch order) and is sent their answers;
        each other group of instances answered alike leaves the pass's path (they idle from
        here on, uncharged) and waits for a pass of its own (:meth:`next_pass`), which runs
        the program again from the run's start with only them, so that it goes their way
        here. A program that cannot be made again, or a machine with an observer (it would
        see the steps of several passes), is refused here (:class:`pram.BatchPathError`)."""
        batch = self.batch
        ended = np.empty((len(tests), batch), np.bool_)
        for k, (step, (read,)) in enumerate(zip(tests, values, strict=True)):
            held = np.broadcast_to(read._values, (batch, read._values.shape[-1])) == step.value
            chosen = chosen_rows(step.processors)
            if chosen is not None:  # only the processors that chose themselves, per instance
                held = held | ~chosen  # (none chosen: every cell read holds it, vacuously)
            ended[k] = np.all(held, axis=1)
            self.ledgers.loop_tests.add(1, alive, batch)
            self.tests += 1
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
        time = self.host._cost.time
        for path in sorted(paths - {followed}):
            if self._remake is None or self.host.observer is not None:
                self._refuse(tests[0], taking(path), going)
            self.pending.append((taking(path), [*self.path, (time, path)]))
        self.alive = going
        return list(followed)

    def _astray(self, how: str, expected: tuple[int, tuple[bool, ...]] | None = None,
                found: tuple[int, tuple[bool, ...]] | None = None) -> NoReturn:
        """Refuse a later pass whose program, made again, did not retrace the path its
        instances took to where they left the pass before: it ``how`` = "ended" before
        reaching their departure test, or "reached" a loop test at another step or with
        other answers (``expected`` the pass before's, ``found`` this one's)."""
        assert self.group is not None
        leaving = np.flatnonzero(self.group).tolist()
        named = ", ".join(map(str, leaving[:8])) + (", ..." if len(leaving) > 8 else "")
        depart, _ = self.expected[-1]
        number = self.host._cost.time
        if how == "ended":
            what = (f"the program made again for them ended at step {number}, after "
                    f"{len(self.path)} of the {len(self.expected)} loop-test steps up to "
                    "their departure")
        else:
            assert expected is not None and found is not None
            what = (f"the program made again for them reached loop-test step "
                    f"{len(self.path)} at step {found[0]} answered {list(found[1])}, where "
                    f"the pass they left reached it at step {expected[0]} answered "
                    f"{list(expected[1])}")
        raise BatchPathError(
            f"instances {named} left the batch's path at the loop test of step {depart} and "
            f"were run again from the start of the run in a pass of their own, but {what}: "
            "the program made again is not the one that ran, likely because it holds a "
            "generator or state made before m.run that making it again cannot see (a "
            "generator in an attribute or a global, a generator expression, an argument "
            "object or a global the program changes); make the "
            "program from its inputs inside the program function, e.g. "
            "m.run(program(m, ...)), or run one machine per instance", number)

    def _refuse(self, step: Any, leaving: Flags, going: Flags) -> NoReturn:
        number = self.host._cost.time

        def named(flags: Flags) -> str:
            found = np.flatnonzero(flags).tolist()
            return ", ".join(map(str, found[:8])) + (", ..." if len(found) > 8 else "")

        where = (f"instances {named(leaving)} end their loop and instances {named(going)} "
                 f"go on at loop test {self.tests} of the run (step {number}, Until on array "
                 f"{step.reads[0].array.name!r}): a batch runs the instances that leave its "
                 "path in a pass of their own, from the start of the run")
        if self._remake is not None:  # an observer would see the steps of several passes
            raise BatchPathError(
                f"{where}, which the machine's observer would see as more steps; remove the "
                "observer (m.observer = None), or run one machine per instance", number)
        raise BatchPathError(
            f"{where}, which needs the program made again, and this one cannot be "
            f"({self._unmade}); pass m.run an unstarted generator, e.g. "
            "m.run(program(m, ...)), or run one machine per instance",
            number,
        )




def _columns(array: Array, part: str) -> Any:
    """An array's cells (``part="_cells"``) or flags of which hold a value (``"_defined"``)
    as the ``(size, batch)`` memory they are (see :func:`pram.memory.rows`), a view that
    writes reach; a batch's array in another layout is put in this one first."""
    rows = getattr(array, part)
    if rows is None:
        return None
    if not rows.T.flags.c_contiguous:
        rows = np.asfortranarray(rows)
        setattr(array, part, rows)
    return rows.T




def _shared(index: Any, n: int) -> bool:
    """Whether a fast step's index is one every instance shares: a word array of ``n``
    cells, or one integer."""
    if type(index) is int:
        return True
    return type(index) is np.ndarray and index.dtype is WORD and index.shape == (n,)


def _ascending_in(index: Words, array: Array, memo: StepMemo) -> bool:
    """Whether ``index`` is ascending and within ``array`` (so its cells are distinct)."""
    return in_range(index, array, memo)


def _and(a: Flags | None, b: Flags | None) -> Flags | None:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _int(x: int | Counts) -> int | Counts:
    """``x`` as a Python int when it is one count for every instance."""
    if type(x) is int:
        return x
    if isinstance(x, np.integer):
        return int(x)
    return x


def _two_meet(cells: Words, ranks: Words, ranked: int, acting: Flags | None = None, *,
              same: bool = False) -> Flags:
    """Per row of ``cells`` (accesses of one instance, ``ranks`` the processors' ranks):
    whether two processors of different ranks touched one cell (``acting`` masks accesses);
    with ``same``, whether any cell appears twice at all."""
    key = cells * ranked + ranks
    if acting is not None:
        low = min(int(key.min()), 0) if key.size else 0
        spare = low - (np.arange(1, cells.shape[1] + 1, dtype=np.int64) * ranked)
        key = np.where(acting, key, spare)
    key = np.sort(key, axis=1)
    cell = key // ranked
    same_cell = cell[:, 1:] == cell[:, :-1]
    if same:
        return same_cell.any(axis=1)  # type: ignore[no-any-return]
    other = key[:, 1:] != key[:, :-1]
    return (same_cell & other).any(axis=1)  # type: ignore[no-any-return]


def _described(array: Array) -> str:
    """An array's size (and shape, when two-dimensional) and dtype, for a message."""
    shape = f", shape {array.shape}" if len(array.shape) == 2 else ""
    return f"size {array.size}{shape}, dtype {array.dtype}"


def _kept(records: list[Any], before: int, group: Flags) -> list[Any]:
    """``records`` without those a pass of ``group``'s instances made (after the first
    ``before``, kept): what a new pass of the group starts from."""
    return records[:before] + [r for r in records[before:] if not group[r.instance]]


def _tag(record: Any, i: int) -> Any:
    """``record`` (a violation or resolution) of instance ``i``."""
    import attrs

    return attrs.evolve(record, instance=i)
