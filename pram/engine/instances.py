"""The instance axis: many instances of one program in lockstep on one machine.

Under the honesty rules a program's host control flow cannot depend on data, so every honest
program takes the same steps, with the same processors, on every input of the same sizes.
``Machine(batch=B)`` runs B instances together: every array holds one row of cells per
instance, every register one row of values per instance (or one row shared by all, for
values computed from sizes), and each global step is one pass of numpy over all instances.
Python's cost is paid once per step for the whole batch.

Each instance is still its own PRAM: its own memory, its own ledger
(:class:`pram.engine.ledgers.Ledgers`), its own violations, resolutions and undefined reads
(each with its ``instance``), and its own random choices (CRCW arbitrary: one generator per
instance, seeded like a single machine's).
One engine (:class:`pram.engine.core.Engine`) executes a batch's steps and a single
machine's: its bounds check, read, store, undefined-read records and accounting are written
once over memory with an instance axis (:func:`columns`, :func:`gather`), which a single
machine's lacks. This module holds what only the axis has: ``Machine(batch=...)`` checked
(:func:`instances`), the memory's layout, and a batch's phase 0 (:func:`fast`, the single
machine's first-branch tests on the indices every instance shares).
The counts of an instance equal those of a single run on its input, exactly; the differential
test (tests/test_batch.py) checks that on random programs under every model.

What differs between instances, and how the engine takes it:

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
  follows those whose loop goes on (answered False) and the program is sent False; the
  others leave the pass's path and idle from there on (no access, no charge, no local work,
  no record: :attr:`pram.engine.core.Engine.alive`). When the program ends, each group that
  left runs in a pass of its own, from the start of the run, on the same machine, every
  other instance inert (:meth:`pram.engine.passes.Passes.next_pass`): the group's rows of
  memory, its ledgers, its random generators and its records are the run's start's again,
  the table of arrays too (an array allocated again under a name and size an earlier pass
  used is the same array), and the program is made again from its unstarted generator
  (:func:`pram.engine.remake.remaker`). A group may split again. Each pass runs the host as
  a single run of any of its instances would, so every instance's counts, records, memory
  and answer (:attr:`pram.Machine.results`) equal its single run's for any loop, at the
  price of one pass per distinct sequence of answers (and, for every run, a copy of memory
  at its start). The program's own Python (a host list it appends to, a print) runs once per
  pass. A program that cannot be made again, or a machine with an observer (it would see
  several passes), is refused at the first disagreement (:class:`pram.BatchPathError`),
  never counted wrong. A later pass is checked against its group's path
  (:meth:`pram.engine.passes.Passes.test`: the same loop-test steps at the same time with
  the same answers up to its departure), which refuses a program whose remade generator does
  not retrace it (one made before ``m.run`` and held where the capture cannot see it). What
  a pass makes afresh: the program's code, closure cells, generator and iterator arguments;
  not any other argument or global object the program changes (a pass sees it as the pass
  before left it). An array a later pass allocates under a name an earlier pass left at its
  end with another size is refused (one array per name holds every instance). A loop test of
  processors chosen by data answers each instance over the processors that chose themselves.

A step whose processors would differ between instances in a way a batch cannot express does
not reach the engine: a host decision on data is refused by the registers. What is refused
here is named in the error, with the instance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._held import cells_of as _cells_of
from pram._held import defined_of as _defined_of
from pram._held import owners_of as _owners_of
from pram._held import put_cells as _put_cells
from pram._held import put_defined as _put_defined
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.engine import conflicts, refusals, validate
from pram.engine.fast import gather as one_gather
from pram.engine.fast import in_range
from pram.engine.memo import StepMemo
from pram.errors import InputError
from pram.memory import WORD, Array, Flags, Words
from pram.registers import Register
from pram.step import Read, Step, Values, Write

if TYPE_CHECKING:
    from pram.engine.core import Engine

__all__ = ["MAX_BATCH", "RESIZED", "gather", "instances"]


#: The most instances one batched machine takes (about a second to set up, a few hundred MB
#: of bookkeeping before any array): beyond it, machines of 10**9 instances took minutes to
#: make and 10**12 ran out of memory.
MAX_BATCH = 1 << 24


def instances(batch: Any, trace: bool, depth: object) -> int | None:
    """The instances ``Machine(batch=...)`` asks for, checked: a positive integer, or None for
    a single machine. A batched machine keeps neither a trace nor cell depths (one instance's
    are recorded on a single machine)."""
    if batch is None:
        return None
    if isinstance(batch, bool) or not isinstance(batch, int | np.integer) or batch < 1:
        raise InputError(
            f"batch must be a positive integer number of instances, or None for one "
            f"(got {batch!r})"
        )
    if batch > MAX_BATCH:
        raise InputError(
            f"batch={int(batch):,} instances is more than one machine holds (at most "
            f"{MAX_BATCH:,}: each keeps a ledger and a row of every array); run them on "
            "several machines, a batch each"
        )
    if trace:
        raise InputError(
            "a batched machine keeps no trace; trace one instance on Machine(trace=True) "
            "(without batch=)"
        )
    if depth is True:
        raise InputError(
            "a batched machine keeps no cell depths; record them for one instance on "
            "Machine(depth=True) (without batch=)"
        )
    return int(batch)


#: The refusal of ``m.batch = ...`` once the machine is made.
RESIZED = ("m.batch = ... changes how many instances the machine's arrays and ledgers hold "
           "after they were made; make a Machine(model, batch=B) instead")


# ---- 0. a batch's fast path ------------------------------------------------------------

def _fast(engine: Engine, steps: Sequence[Step], memo: StepMemo, alive: Flags | None
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
    token = engine.host._token
    for step in steps:
        if type(step) is not Step:
            return None
        who = step.processors
        if type(who) is not np.ndarray or who.dtype is not WORD or who.ndim != 1 \
                or not len(who) or refusals.too_many(step.reads, step.writes):
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
            value, held = write.value, _cells_of(write.array).dtype
            if type(value) is Register:
                if _owners_of(value) is not who or value._run is not token \
                        or _raw_of(value).dtype != held:
                    return None
            elif not (validate.word_constant(value) and held is WORD) and not (
                    type(value) is np.ndarray and value.dtype == held
                    and value.shape == (n,)):
                return None
    host = engine.host
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
                if not in_range(index, array, memo):  # type: ignore[arg-type]
                    return None
                if checks:
                    checked.setdefault(id(array), (array, []))[1].append(
                        (index, ranked, None))  # type: ignore[arg-type]
        ranked += n
    for array, cells in checked.values():
        if len(cells) > 1 and not conflicts.distinct_cells(
            cells, array.size, ranked, memo, engine.scratch,
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
            if _defined_of(array) is not None:
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
            memory = _columns(write.array, "_cells")
            value = write.value
            raw = _raw_of(value) if type(value) is Register else value
            if live is not None:  # only the rows of the instances taking steps
                if type(raw) is np.ndarray and raw.ndim == 2:
                    raw = raw[live]
                to = write.index
                target: Any = ((to[:, None] if type(to) is np.ndarray
                               else np.array([[to]], np.int64)), live)
            else:
                target = write.index
            memory[target] = raw.T if type(raw) is np.ndarray and raw.ndim == 2 \
                else (raw[:, None] if type(raw) is np.ndarray else raw)
            if _defined_of(write.array) is not None:
                _columns(write.array, "_defined")[target] = True
    engine._account(steps, [(len(s.processors), len(s.processors) * len(s.reads),
                           len(s.processors) * len(s.writes)) for s in steps], alive)
    return answers


def _columns(array: Array, part: str) -> Any:
    """An array's cells (``part="_cells"``) or flags of which hold a value (``"_defined"``)
    as the ``(size, batch)`` memory they are (see :func:`pram.memory.rows`), a view that
    writes reach; a batch's array in another layout is put in this one first. A single
    machine's memory is its one row, returned as it is."""
    get, put = (_cells_of, _put_cells) if part == "_cells" else (_defined_of, _put_defined)
    rows = get(array)
    if rows is None or rows.ndim == 1:
        return rows  # (or a single machine's memory: one row, no instance axis)
    if not rows.T.flags.c_contiguous:
        rows = np.asfortranarray(rows)
        put(array, rows)
    return rows.T


def gather(columns: npt.NDArray[Any], index: Words) -> npt.NDArray[Any]:
    """The cells of ``columns`` (memory as :func:`columns` gives it) at ``index`` (in range):
    ``(batch, n)`` of a batch's, by a shared index n runs of ``batch`` words, by one index per
    instance one word each; ``(n,)`` of a single machine's, its one row (by the faster of two
    exact gathers, :func:`pram.engine.fast.gather`)."""
    found: npt.NDArray[Any]
    if columns.ndim == 1:
        found = one_gather(columns, index)
    elif index.ndim == 1:
        found = columns.take(index, axis=0).T
    else:
        batch = columns.shape[1]
        flat = index * batch + np.arange(batch, dtype=np.int64)[:, None]
        found = columns.reshape(-1).take(flat)
    return found


def _shared(index: Any, n: int) -> bool:
    """Whether a fast step's index is one every instance shares: a word array of ``n``
    cells, or one integer."""
    if type(index) is int:
        return True
    return type(index) is np.ndarray and index.dtype is WORD and index.shape == (n,)
