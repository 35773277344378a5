"""Phases 0 and 5 of a single machine's step: the fast path, and accounting.

:class:`FastPath` is the part of :class:`pram.engine.core.Engine` that executes the usual
global step (no masks, ascending indices in range, branches on disjoint ranges of processors)
with only the first branch of each test the general path runs (:mod:`pram.engine.validate`'s
:func:`~pram.engine.validate.as_words`, :func:`~pram.engine.memo.ascending`), and charges the
ledger for every step, fast or not.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pram._held import cells_of as _cells_of
from pram._held import cost_of as _cost_of
from pram._held import defined_of as _defined_of
from pram._held import raw_of as _raw_of
from pram._numpy import np
from pram.cost import PhaseCost, charge, charge_local
from pram.engine import conflicts, rounds
from pram.engine.memo import Scratch, StepMemo, ascending
from pram.engine.refusals import too_many
from pram.engine.validate import as_words, word_constant, word_ids
from pram.memory import WORD, Array, Flags, Words
from pram.registers import Register
from pram.registers.ids import Chosen
from pram.step import Read, Step, Values, Write

if TYPE_CHECKING:
    from pram.engine.core import Host

__all__ = ["FastPath", "bound", "in_range", "phase_shares", "prefixes", "store", "undefined"]


class FastPath:
    """Phase 0 (the fast path) and phase 5 (accounting) of :class:`pram.engine.core.Engine`."""

    #: ``opened``: the round the last step left open for the next to join
    #: (:mod:`pram.engine.rounds`).
    __slots__ = ("opened",)
    host: Host
    scratch: Scratch
    opened: rounds.Opened | None

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
        processor listed twice), :func:`pram.engine.validate.as_words` and
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
                    index = as_words(port.index, pid, n, token)
                    if index is None or not self.owns(array) or len(array.shape) != 1 \
                            or not in_range(index, array, memo):
                        return None  # a pair into a 2-D array: the general path
                    if checks:
                        checked.setdefault(id(array), (array, []))[1].append((index, ranked, None))
            for write in step.writes:
                if not word_constant(write.value) and as_words(write.value, pid, n,
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
                if undefined(array, index) is not None:
                    return None  # the general path reports the undefined cells
                values.append(Register(_cells_of(array).take(index), pid, token))
            replies.append(tuple(values))
        for branch, step in enumerate(steps):
            if replies[branch]:
                bound(step.processors)  # type: ignore[arg-type]
            for write in step.writes:
                store(write.array, _words_of(write.index), _words_of(write.value))
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
        if type(step) is not Step:
            return None
        pid, reads, writes = step.processors, step.reads, step.writes
        if type(pid) is not np.ndarray or pid.dtype is not WORD or pid.ndim != 1:
            return None  # processors chosen by data (or to convert): the general path's
        n = len(pid)
        if not n or too_many(reads, writes):
            return None
        for read in reads:
            if type(read) is not Read or read.where is not None:
                return None
        for write in writes:
            if type(write) is not Write or write.where is not None:
                return None
        host = self.host
        if host.distinct_processors and n > 1 and not ascending(pid, memo):
            return None  # conflicts.ids_distinct of one step
        token, arrays = host._token, host.arrays
        checks_reads = host.model.checks_reads
        # The checked ports' arrays and indices, in the order _fast collects them.
        checked: list[tuple[Array, Words]] = []
        read_cells: list[Words] = []
        for read in reads:
            array = read.array
            index = as_words(read.index, pid, n, token)
            if index is None or type(array) is not Array or arrays.get(array.name) is not array \
                    or len(array.shape) != 1 or not in_range(index, array, memo):
                return None  # a 2-D array: the general path takes pairs and refuses the rest
            read_cells.append(index)
            if checks_reads:
                checked.append((array, index))
        stores: list[tuple[Array, Words, Words | int]] = []
        for write in writes:
            array = write.array
            index = as_words(write.index, pid, n, token)
            if index is None or type(array) is not Array or arrays.get(array.name) is not array \
                    or len(array.shape) != 1 or not in_range(index, array, memo):
                return None  # a 2-D array: the general path takes pairs and refuses the rest
            checked.append((array, index))
            value = write.value
            if word_constant(value):
                stores.append((array, index, value))  # type: ignore[arg-type]  # an int
            else:
                words = as_words(value, pid, n, token)
                if words is None:
                    return None
                stores.append((array, index, words))
        if len(checked) > 1 and len({id(array) for array, _ in checked}) < len(checked):
            ports: dict[int, tuple[Array, list[conflicts.Cells]]] = {}
            for array, index in checked:
                ports.setdefault(id(array), (array, []))[1].append((index, 0, None))
            for array, cells in ports.values():
                if len(cells) > 1 and not conflicts.distinct_cells(
                    cells, array.size, n, memo, self.scratch,
                    each_ascending=True, last_ascending=True,
                ):
                    return None  # the general path names the processors that met
        values = []
        for read, index in zip(reads, read_cells, strict=True):
            array = read.array
            if _defined_of(array) is not None and undefined(array, index) is not None:
                return None  # the general path reports the undefined cells
            values.append(Register(_cells_of(array).take(index), pid, token))
        if values and pid.flags.writeable:
            pid.flags.writeable = False  # bound(pid): registers are bound to it now
        for array, index, written in stores:
            _cells_of(array)[index] = written
            flags = _defined_of(array)
            if flags is not None:
                flags[index] = True
        self._account_one(step, n, n * len(reads), n * len(writes))
        return [tuple(values)]

    # ---- 5. account -----------------------------------------------------------------------

    def _account(self, steps: Sequence[Step], tallies: Sequence[tuple[int, int, int]]) -> None:
        """Charge one unit of time and the step's processors, reads and writes (``tallies``,
        one per branch) to the ledger, and to the phase of each branch and the phases around
        it."""
        cost = _cost_of(self.host)
        active = reads = writes = 0
        for n, r, w in tallies:
            active += n
            reads += r
            writes += w
        shares = phase_shares(steps, tallies)
        local = self._local()
        labels = (steps[0].phase,) if len(steps) == 1 else tuple(sorted({s.phase for s in steps}))
        joined, self.opened = rounds.take(self.opened, steps, [prefixes(s.phase) for s in steps])
        for label, (n, r, w) in shares.items():
            share = cost.phases.get(label)
            if share is None:
                share = cost.phases[label] = PhaseCost()
            # The phase's own processors in this step, not those of other branches.
            if joined is None:
                charge(share, n, r, w)
            else:
                within = joined.within(label)
                charge(share, n, r, w, within is not None, int(within or 0))
            if local:
                charge_local(share, local)
        if joined is None:
            charge(cost, active, reads, writes)
        else:
            charge(cost, active, reads, writes, True, int(joined.newcomers))
        cost.profile.append(active)
        cost.step_phases.append(labels)

    def _account_one(self, step: Step, n: int, reads: int, writes: int) -> None:
        """:meth:`_account` for a global step of one step (of ``n`` processors)."""
        cost = _cost_of(self.host)
        phase = step.phase
        around = prefixes(phase)
        joined, self.opened = rounds.take_one(self.opened, step, around)
        if phase:
            phases = cost.phases
            local = self._local()
            for label in around:
                share = phases.get(label)
                if share is None:
                    share = phases[label] = PhaseCost()
                if joined is None:
                    charge(share, n, reads, writes)
                else:
                    within = joined.within(label)
                    charge(share, n, reads, writes, within is not None, int(within or 0))
                if local:
                    charge_local(share, local)
        if joined is None:
            charge(cost, n, reads, writes)
        else:
            charge(cost, n, reads, writes, True, int(joined.newcomers))
        cost.profile.append(n)
        cost.step_phases.append((phase,))

    def _local(self) -> int:
        """The register operations the machine charged before this step (taken once): what
        each of the step's phases adds to its ``local`` (the ledger has them already)."""
        token = self.host._token
        if token is None:
            return 0
        local = token._charged
        token._charged = 0
        return local


# ---- the predicates both paths ask ---------------------------------------------------------


@functools.cache
def prefixes(path: str) -> tuple[str, ...]:
    """``"a/b/c"`` and the phases around it: ``("a", "a/b", "a/b/c")`` (computed once a path,
    for the single and the batched engine alike)."""
    parts = path.split("/")
    return tuple("/".join(parts[: i + 1]) for i in range(len(parts)))


def phase_shares(steps: Sequence[Step], tallies: Sequence[Sequence[Any]]
                 ) -> dict[str, list[Any]]:
    """Each phase's share of a global step: the processors, reads and writes (``tallies``, one
    per branch: ints, or one count per instance in a batch) of the branches in it or in a phase
    inside it (for the single and the batched engine alike)."""
    shares: dict[str, list[Any]] = {}
    for step, (n, r, w) in zip(steps, tallies, strict=True):
        if step.phase:
            for label in prefixes(step.phase):
                tally = shares.get(label)
                if tally is None:
                    shares[label] = [n, r, w]
                else:  # not +=: a batch's counts may be arrays another tally holds too
                    tally[0], tally[1], tally[2] = tally[0] + n, tally[1] + r, tally[2] + w
    return shares


def in_range(index: Words, array: Array, memo: StepMemo) -> bool:
    """Whether ``index`` (not empty) is ascending, so its cells are distinct, and its first
    and last cells are in ``array``, so all are."""
    return ((len(index) < 2 or ascending(index, memo))
            and index.item(0) >= 0 and index.item(-1) < array.size)


def undefined(array: Array, index: Words) -> Flags | None:
    """Which of the cells read are defined, if any is not; None when all are."""
    flags = _defined_of(array)
    if flags is None:
        return None
    known = flags.take(index)
    return None if np.count_nonzero(known) == len(known) else known


def bound(pid: Words) -> Words:
    """``pid``, made read-only: registers are bound to it now, and changing it would move
    their values to other processors."""
    if pid.flags.writeable:
        pid.flags.writeable = False
    return pid


def store(array: Array, cells: Words, values: Words | int) -> None:
    """Write ``values`` to ``cells`` of ``array``, which are defined from now on."""
    _cells_of(array)[cells] = values
    flags = _defined_of(array)
    if flags is not None:
        flags[cells] = True


def _words_of(x: object) -> Words:
    """The words of a fast step's index or value (checked by
    :func:`pram.engine.validate.as_words`)."""
    if type(x) is Register:
        return _raw_of(x)
    return x  # type: ignore[return-value]
