"""Phase 0 of a single machine's step: the fast path (accounting, phase 5, is
:mod:`pram.engine.accounting`'s).

:class:`FastPath` is the part of :class:`pram.engine.core.Engine` that executes the usual
global step (no masks, ascending indices in range, branches on disjoint ranges of processors)
with only the first branch of each test the general path runs (:mod:`pram.engine.validate`'s
:func:`~pram.engine.validate._as_words`, :func:`~pram.engine.memo.ascending`). A single step it
took twice whose processors, indices and values all live in immutable memory is planned: yielded
again, it runs by its plan (:meth:`FastPath._planned`), which tests again everything that does
not read only that immutable data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pram._held import cells_of as _cells_of
from pram._held import defined_of as _defined_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.engine import conflicts
from pram.engine.accounting import Accounting, phase_shares, prefixes
from pram.engine.memo import Scratch, StepMemo, ascending
from pram.engine.refusals import MAX_ACCESSES, too_many
from pram.engine.validate import _as_words, word_constant, word_ids
from pram.memory import WORD, Array, Flags, Words
from pram.registers import Register
from pram.registers.ids import Chosen, immutable
from pram.step import Read, Step, Values, Write

if TYPE_CHECKING:
    from pram.engine.core import Host

__all__ = ["FastPath", "bound", "gather", "in_range", "phase_shares", "prefixes",]


#: One port of a planned step: the Read or Write, its array, the array's size and shape, its
#: indices, and the value it writes (None for a read).
Planned = tuple[Any, Array, int, tuple[int, ...], Words, Any]

#: A planned step (:meth:`FastPath._planned`): the step, its processors, reads and writes,
#: the model that checked it, its ports (reads first), its processors' count, and its read
#: ports and its write ports.
Plan = tuple[Step, Words, tuple[Read, ...], tuple[Write, ...], Any, tuple[Planned, ...], int,
             tuple[Planned, ...], tuple[Planned, ...]]


#: ``id(None)``: the mask of an unmasked port in the conflict memo's keys.
_NONE = id(None)

#: The most steps planned (and seen) at once: each is held, with its arrays, until the plans
#: (the steps seen) are cleared.
PLANS = 8


class FastPath(Accounting):
    """Phase 0 (the fast path) of :class:`pram.engine.core.Engine`, and (from
    :class:`pram.engine.accounting.Accounting`) phase 5, accounting."""

    #: ``_plans``: by id, the last single steps the fast path took twice whose processors,
    #: indices and values are all immutable, each with what its tests found
    #: (:meth:`_planned`); ``_seen``: by id, the last single steps it took.
    __slots__ = ("_plans", "_seen")
    host: Host
    scratch: Scratch
    _plans: dict[int, Plan]
    _seen: dict[int, Step]

    def owns(self, array: object) -> bool:
        """Whether ``array`` is an array of this machine, not freed."""
        return type(array) is Array and self.host.arrays.get(array.name) is array


    # ---- 0. the fast path -----------------------------------------------------------------

    def _fast(self, steps: Sequence[Step], memo: StepMemo) -> list[Values] | None:
        """Execute the global step ``steps`` if every phase would pass it at its first branch,
        or return None (having changed nothing) if not.

        That is the usual step: in every branch, word processor ids that are distinct, no
        ``where`` masks, indices and values that need no conversion, arrays of this machine,
        every index ascending and in range; the checked ports into one array meeting at no
        cell; and no undefined cell read. No two of its processors meet, so there is nothing
        to judge. Every other step, and every error, is the general path's, which names what
        is wrong.

        Each test here is a function the general path asks too, at the first branch of its
        own test: :func:`pram.engine.validate.word_ids` and :func:`too_many` (phase 1, the
        processors and the ports' count), :func:`pram.engine.conflicts.ids_distinct` (phase 2, a
        processor listed twice), :func:`pram.engine.validate._as_words` and
        :func:`pram.engine.validate.word_constant` (phase 1, an index or a value), :meth:`owns`
        (phase 1, the array), :func:`in_range` (phase 1, the bounds),
        :func:`pram.engine.conflicts.distinct_cells` (phase 2, the conflict test) and
        :func:`undefined` (phase 3, the read).
        """
        for step in steps:
            if type(step) is not Step:
                return None
            who, reads, writes = step.processors, step.reads, step.writes
            if type(who) is Chosen or not word_ids(who) or not len(who) \
                    or too_many(reads, writes):
                return None  # processors chosen by data: the general path's checks
            for read in reads:
                if type(read) is not Read or read.where is not None:
                    return None
            for write in writes:
                if type(write) is not Write or write.where is not None:
                    return None
        host = self.host
        if host.distinct_processors and not conflicts.ids_distinct(steps, memo):
            return None
        checks_reads, token = host.model.checks_reads, host._token
        # Each array's checked ports: their indices, and the rank of their first processor.
        checked: dict[int, tuple[Array, list[conflicts.Cells]]] = {}
        ranked = 0
        for step in steps:
            pid: Words = step.processors  # type: ignore[assignment]  # word ids: tested above
            n = len(pid)
            for kind, checks in ((step.reads, checks_reads), (step.writes, True)):
                for port in kind:
                    array = port.array
                    index = _as_words(port.index, pid, n, token)
                    if index is None or not self.owns(array) or len(array.shape) != 1 \
                            or not in_range(index, array, memo):
                        return None  # a pair into a 2-D array: the general path
                    if checks:
                        checked.setdefault(id(array), (array, []))[1].append((index, ranked, None))
            for write in step.writes:
                if not word_constant(write.value) and _as_words(write.value, pid, n,
                                                               token) is None:
                    return None
            ranked += n
        for array, cells in checked.values():
            if len(cells) > 1 and not conflicts.distinct_cells(
                cells, array.size, ranked, memo, self.scratch,
                each_ascending=True, last_ascending=True,
            ):
                return None  # the general path names the processors that met
        replies: list[Values] = []
        for step in steps:
            pid = step.processors  # type: ignore[assignment]
            values = []
            for read in step.reads:
                array, index = read.array, _words_of(read.index)
                if _undefined_cells(array, index) is not None:
                    return None  # the general path reports the undefined cells
                values.append(Register(gather(_cells_of(array), index), pid, token))
            replies.append(tuple(values))
        for branch, step in enumerate(steps):
            if replies[branch]:
                bound(step.processors)  # type: ignore[arg-type]
            for write in step.writes:
                _store(write.array, _words_of(write.index), _words_of(write.value))
        if len(steps) == 1:
            n = len(pid)
            self._account_one(step, n, n * len(step.reads), n * len(step.writes))
        else:
            self._account(steps, [(len(s.processors), len(s.processors) * len(s.reads),
                                   len(s.processors) * len(s.writes)) for s in steps])
        return replies

    def _fast_one(self, step: Step, memo: StepMemo) -> list[Values] | None:
        """:meth:`_fast` for a global step of one step (no parallel branches), the usual
        case: the same tests in the same order, in one pass over the ports, with no
        bookkeeping for branches (a step's fixed cost is what small steps pay)."""
        host = self.host
        if type(step) is not Step:
            return None
        pid, reads, writes = step.processors, step.reads, step.writes
        if type(pid) is not np.ndarray or pid.dtype is not WORD or pid.ndim != 1:
            return None  # processors chosen by data (or to convert): the general path's
        n = len(pid)
        # too_many(reads, writes), its rule written out (the call is a step's fixed cost)
        if not n or len(reads) > MAX_ACCESSES or len(writes) > MAX_ACCESSES:
            return None
        for read in reads:
            if type(read) is not Read or read.where is not None:
                return None
        for write in writes:
            if type(write) is not Write or write.where is not None:
                return None
        if host.distinct_processors and n > 1 and not ascending(pid, memo):
            return None  # conflicts.ids_distinct of one step
        token, arrays = host._token, host.arrays
        checks_reads = host.model.checks_reads
        # The checked ports' arrays and indices, in the order _fast collects them.
        checked: list[tuple[Array, Words]] = []
        read_cells: list[Words] = []
        # Below, _as_words's test of a plain array and in_range's rule are written out (a call
        # is a step's fixed cost): the same tests, the calls left to registers and the rest.
        for read in reads:
            array = read.array
            index: Any = read.index
            if type(index) is not np.ndarray or index.dtype is not WORD or index.shape != (n,):
                index = _as_words(index, pid, n, token)
                if index is None:
                    return None
            if type(array) is not Array or arrays.get(array._name) is not array \
                    or len(array._shape) != 1 \
                    or not ((n < 2 or ascending(index, memo)) and index.item(0) >= 0
                            and index.item(-1) < array._size):
                return None  # a 2-D array: the general path takes pairs and refuses the rest
            read_cells.append(index)
            if checks_reads:
                checked.append((array, index))
        stores: list[tuple[Array, Words, Words | int]] = []
        for write in writes:
            array = write.array
            index = write.index
            if type(index) is not np.ndarray or index.dtype is not WORD or index.shape != (n,):
                index = _as_words(index, pid, n, token)
                if index is None:
                    return None
            if type(array) is not Array or arrays.get(array._name) is not array \
                    or len(array._shape) != 1 \
                    or not ((n < 2 or ascending(index, memo)) and index.item(0) >= 0
                            and index.item(-1) < array._size):
                return None  # a 2-D array: the general path takes pairs and refuses the rest
            checked.append((array, index))
            value = write.value
            if word_constant(value):
                stores.append((array, index, value))  # type: ignore[arg-type]  # an int
            else:
                words = _as_words(value, pid, n, token)
                if words is None:
                    return None
                stores.append((array, index, words))
        if len(checked) > 1 and (checked[0][0] is checked[1][0] if len(checked) == 2 else
                                 len({id(array) for array, _ in checked}) < len(checked)):
            meeting: dict[int, tuple[Array, list[conflicts.Cells]]] = {}
            for array, index in checked:
                meeting.setdefault(id(array), (array, []))[1].append((index, 0, None))
            known = memo.distinct
            for array, cells in meeting.values():
                if len(cells) < 2:
                    continue
                # conflicts.distinct_cells's memo (ports sharing indices, the fields of one
                # record, tested once), its key made without a generator for a pair
                key = ((id(cells[0][0]), 0, _NONE), (id(cells[1][0]), 0, _NONE)) \
                    if len(cells) == 2 else tuple((id(index), 0, _NONE) for index, _, _ in cells)
                distinct = known.get(key)
                if distinct is None:
                    distinct = known[key] = conflicts.distinct_cells_once(
                        cells, array._size, n, self.scratch, True, True)
                if not distinct:
                    return None  # the general path names the processors that met
        values = []
        for read, index in zip(reads, read_cells, strict=False):  # one index a read
            array = read.array
            if _defined_of(array) is not None and _undefined_cells(array, index) is not None:
                return None  # the general path reports the undefined cells
            values.append(Register(gather(_cells_of(array), index), pid, token))
        if values and pid.flags.writeable:
            pid.flags.writeable = False  # bound(pid): registers are bound to it now
        for array, index, written in stores:
            _cells_of(array)[index] = written
            flags = _defined_of(array)
            if flags is not None:
                flags[index] = True
        self._account_one(step, n, n * len(reads), n * len(writes))
        seen = self._seen
        if seen.get(id(step)) is step:  # yielded again: plan it for the yields after
            self._plan(step, pid, n, read_cells, stores)
        else:
            if len(seen) >= PLANS:
                seen.clear()
            seen[id(step)] = step
        return [tuple(values)]

    def _plan(self, step: Step, pid: Words, n: int, read_cells: list[Words],
              stores: list[tuple[Array, Words, Words | int]]) -> None:
        """Plan ``step``, which :meth:`_fast_one` took (its indices ``read_cells`` and
        ``stores``), for :meth:`_planned`, if its processors, indices and values all live in
        immutable memory (ints, or plain arrays over ``bytes``; never registers, whose run is
        tested at every step) and every processor is tested for distinct ids."""
        reads, writes = step.reads, step.writes
        host = self.host
        if not host.distinct_processors or not immutable(pid):
            return
        for read in reads:
            if not _fixed(read.index):
                return
        for write in writes:
            if not _fixed(write.index) or not (type(write.value) is int
                                               or _fixed(write.value)):
                return
        # Its ports in order (reads, then writes), each with its array, the array's sizes,
        # its indices and the value it writes.
        ports: list[Planned] = [
            (read, read.array, read.array._size, read.array._shape, index, None)
            for read, index in zip(reads, read_cells, strict=True)]
        ports += [(write, array, array._size, array._shape, index, write.value)
                  for write, (array, index, _) in zip(writes, stores, strict=True)]
        plans = self._plans
        if len(plans) >= PLANS:
            plans.clear()  # a program yielding many steps again: plan afresh
        plans[id(step)] = (step, pid, reads, writes, host.model, tuple(ports), n,
                           tuple(ports[:len(reads)]), tuple(ports[len(reads):]))

    def _planned(self, step: Step, plan: Plan) -> list[Values] | None:
        """Execute ``step`` by its ``plan`` (made by :meth:`_fast_one` when the step took the
        fast path before), or return None (having changed nothing) if the plan no longer holds
        or a cell read is undefined: :meth:`_fast_one` then decides.

        The planned step's processors, indices and values live in immutable memory, and its
        fields are still the planned objects (tested here: a frozen step's fields can be
        swapped behind its back), so every test of :meth:`_fast_one` that reads only them
        (types, the ids' order, the indices' order and bounds, the ports meeting at no cell)
        answers as it did. Every test that reads anything else runs again: the arrays still
        this machine's with the sizes planned, the model the same, and the undefined cells
        read. Then the same reads, writes and accounting as :meth:`_fast_one`'s.
        """
        _, pid, reads, writes, model, ports, n, read_ports, write_ports = plan
        host = self.host
        if step.processors is not pid or step.reads is not reads or step.writes is not writes \
                or host.model is not model:
            return None
        arrays = host.arrays
        for port, array, size, shape, index, value in ports:
            if port.index is not index or port.array is not array \
                    or arrays.get(array._name) is not array or array._size != size \
                    or array._shape is not shape or (value is not None and port.value is not value):
                return None
        token = host._token
        values = []
        for _, array, _, _, index, _ in read_ports:
            if _defined_of(array) is not None and _undefined_cells(array, index) is not None:
                return None  # the general path reports the undefined cells
            # gather's rule, written out (a call is a step's fixed cost)
            cells = _cells_of(array)
            values.append(Register(
                cells[index] if len(index) <= GATHER_BY_INDEX or not index.flags.writeable
                else cells.take(index), pid, token))
        # pid lives in immutable memory: bound already (never writeable)
        for _, array, _, _, index, written in write_ports:
            _cells_of(array)[index] = written
            flags = _defined_of(array)
            if flags is not None:
                flags[index] = True
        self._account_one(step, n, n * len(read_ports), n * len(write_ports))
        return [tuple(values)]


# ---- the predicates both paths ask ---------------------------------------------------------


def in_range(index: Words, array: Array, memo: StepMemo) -> bool:
    """Whether ``index`` (not empty) is ascending, so its cells are distinct, and its first
    and last cells are in ``array``, so all are (the rule :meth:`FastPath._fast_one` writes
    out: change both together)."""
    return ((len(index) < 2 or ascending(index, memo))
            and index.item(0) >= 0 and index.item(-1) < array.size)


#: Gathers of at most this many cells index the cells (``cells[index]``), longer ones call
#: ``take``, unless the indices are read-only, which always index. Measured
#: (benchmarks/thresholds.py, "gather"): indexing takes 0.10 us at 64 cells against take's
#: 0.17 us, 0.34 against 0.36 at 384, 0.43 against 0.41 at 512, 0.72 against 0.60 at 1,024;
#: take copies read-only indices first (the ids Machine.processors hands out, immutable
#: memory): 0.27 us at 64, 187 us at 65,536 against indexing's 42 us.
GATHER_BY_INDEX = 384


def gather(cells: Any, index: Words) -> Any:
    """``cells`` at ``index`` (in range), by the faster of two exact gathers: indexing, or
    ``take`` for long writeable indices (:data:`GATHER_BY_INDEX`)."""
    if len(index) <= GATHER_BY_INDEX or not index.flags.writeable:
        return cells[index]
    return cells.take(index)


def _undefined_cells(array: Array, index: Words) -> Flags | None:
    """Which of the cells read are defined, if any is not; None when all are."""
    flags = _defined_of(array)
    if flags is None:
        return None
    known = gather(flags, index)
    return None if np.count_nonzero(known) == len(known) else known


def bound(pid: Words) -> Words:
    """``pid``, made read-only: registers are bound to it now, and changing it would move
    their values to other processors."""
    if pid.flags.writeable:
        pid.flags.writeable = False
    return pid


def _store(array: Array, cells: Words, values: Words | int) -> None:
    """Write ``values`` to ``cells`` of ``array``, which are defined from now on."""
    _cells_of(array)[cells] = values
    flags = _defined_of(array)
    if flags is not None:
        flags[cells] = True


def _fixed(x: object) -> bool:
    """Whether ``x`` is a plain array in immutable memory (never a register: a register's run
    is tested at every step)."""
    return type(x) is np.ndarray and immutable(x)


def _words_of(x: object) -> Words:
    """The words of a fast step's index or value (checked by
    :func:`pram.engine.validate._as_words`)."""
    if type(x) is Register:
        return _raw_of(x)
    return x  # type: ignore[return-value]
