"""Meetings of processors: a processor listed twice, and two processors at one cell.

Three questions, each answered by the cheapest exact test first:

- *Is a processor listed twice in the global step?* (:func:`check_processors`) Ascending ids
  in disjoint ranges cannot repeat (:func:`ids_distinct`); otherwise a table indexed by id
  holds each processor's rank, and a processor that finds a foreign rank at its id was listed
  twice; ids spread too wide for the table are sorted.
- *Do the ports into one array touch any cell by two processors?* (:func:`distinct_cells`)
  Ascending ports in disjoint ranges cannot; otherwise the same table, indexed by cell.
- *Who met, under which rule, and which write lands?* (:func:`resolve`) Only a step in which
  two processors met pays for this slow path: it sorts that array's accesses by cell, names
  every violation the model forbids, and resolves the writes, still without a loop per cell.

A processor's *rank* is its position among all processors of the global step (see
:mod:`pram.engine.memo`); an *access* is one processor's read or write of one cell through a port.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn

from pram._held import cells_of as _cells_of
from pram._numpy import np
from pram.engine.memo import RANKS_MAX, Ranks, Scratch, StepMemo, ascending, disjoint
from pram.engine.validate import Port
from pram.errors import ConflictError, StepError
from pram.memory import Array, Flags, Words
from pram.models import COLLISION, Model
from pram.step import Step
from pram.violations import Kind, Resolution, Violation, when

#: Up to this many accesses to an array (or processors in a step), the bounds check, the
#: conflict test and the processor check loop in Python over ``tolist()`` instead of calling
#: numpy. Measured (benchmarks/thresholds.py, "python-or-numpy"), the Python loop is the
#: quicker side up to about 60 cells for the bounds check, 32 to 56 accesses for the conflict
#: test and beyond 128 ids for the processor check; 24 lies below all three crossovers.
SMALL = 24

#: The processor check's table covers a span of ids of at most this many, or 4 per processor
#: of the step if that is more (4 bytes each, 32 MiB at the floor): its memory follows the
#: steps, not the ids ever handed out. Steps whose ids spread wider are sorted instead.
#: Measured (benchmarks/thresholds.py, "id-table"), the table is 1.7 to 25 times quicker
#: than the sort at every size tried (2^10 to 2^20 ids over spans of 2^20 to 2^26), so the
#: floor is a memory budget: any step of ids within 2^23 of each other takes the table.
ID_TABLE_FLOOR = 1 << 23


# ---- a processor listed twice ---------------------------------------------------------------


def ids_distinct(steps: Sequence[Step], memo: StepMemo) -> bool:
    """Whether the processors of ``steps`` are distinct by their order alone: each step's ids
    ascending, and the steps' ranges disjoint."""
    for step in steps:
        pid = step.processors
        if len(pid) > 1 and not ascending(pid, memo):  # type: ignore[arg-type]  # word ids
            return False
    return len(steps) == 1 or disjoint([step.processors for step in steps])  # type: ignore[misc]


def check_processors(
    steps: Sequence[Step], ranked: int, number: int, memo: StepMemo, scratch: Scratch
) -> None:
    """Refuse a processor id listed twice in one global step (of ``ranked`` processors): it
    would be counted twice.

    Ids within a span of ``max(4 * ranked, 2^23)`` go through one scatter and one gather of
    ranks into the 32-bit table, like the conflict test (offset by the smallest id when the
    ids are not small and non-negative); ids spread wider are sorted, which is rare.
    """
    if ranked <= SMALL:
        seen: set[int] = set()
        for step in steps:
            for pid in step.processors.tolist():
                if pid in seen:
                    acts_twice(pid, steps, number)
                seen.add(pid)
        return
    if ids_distinct(steps, memo):
        return
    acting = [s.processors.astype(np.int64, copy=False) for s in steps if len(s.processors)]
    budget = max(4 * ranked, ID_TABLE_FLOOR)
    low = min(int(pid.min()) for pid in acting)
    high = max(int(pid.max()) for pid in acting)
    offset = 0 if low >= 0 and high < budget else low  # small ids index the table directly
    span = high - offset + 1
    if span <= budget and ranked <= RANKS_MAX:
        table = scratch.table(span)
        cells = [pid if offset == 0 else pid - offset for pid in acting]
        ranks: list[Ranks] = []
        first = 0
        for pid in acting:
            ranks.append(scratch.ranks(first, len(pid)))
            first += len(pid)
        for cell, rank in zip(cells, ranks, strict=True):
            table[cell] = rank
        for pid, cell, rank in zip(acting, cells, ranks, strict=True):
            same = np.take(table, cell) == rank
            if not same.all():
                acts_twice(int(pid[np.argmin(same)]), steps, number)
        return
    everyone = np.concatenate([s.processors.astype(np.int64) for s in steps])
    ordered = np.sort(everyone)
    again = np.flatnonzero(ordered[1:] == ordered[:-1])
    if len(again):
        acts_twice(int(ordered[again[0]]), steps, number)


def acts_twice(pid: int, steps: Sequence[Step], number: int) -> NoReturn:
    """Raise for ``pid`` listed twice, naming the phase of the last step listing it."""
    step = next(s for s in reversed(steps) if bool((s.processors == pid).any()))
    raise StepError(
        f"processor {pid} acts twice {when(number, step.phase)}; a processor "
        "acts at most once per step, so give each parallel branch its own processors "
        "(Machine.processors hands out fresh ones)",
        number,
    )


# ---- two processors at one cell -------------------------------------------------------------

#: One port as the conflict test sees it: its cells, the rank of its step's first processor
#: and its ``where`` mask (the ranks of the processors acting are the step's, masked).
Cells = tuple[Words, int, Flags | None]


def distinct_cells(
    ports: list[Cells],
    size: int,
    ranked: int,
    memo: StepMemo,
    scratch: Scratch,
    *,
    each_ascending: bool,
    last_ascending: bool,
) -> bool:
    """Whether ``ports`` into one array of ``size`` cells (at least two accesses in all) touch
    no cell by two different processors, in a global step of ``ranked`` processors.

    Ports with the same indices, ranks and masks as ports asked about before in this step
    (the fields of a record, say) get the answer found then, from ``memo``.
    ``each_ascending``: every port's indices are ascending; ``last_ascending``: the last's are.
    """
    key = tuple((id(index), rank, id(where)) for index, rank, where in ports)
    known = memo.distinct.get(key)
    if known is None:
        known = memo.distinct[key] = distinct_cells_once(
            ports, size, ranked, scratch, each_ascending, last_ascending
        )
    return known


def distinct_cells_once(
    ports: list[Cells],
    size: int,
    ranked: int,
    scratch: Scratch,
    each_ascending: bool,
    last_ascending: bool,
) -> bool:
    """:func:`distinct_cells` without the memo: for a caller that asks once."""
    if len(ports) == 2 and each_ascending:
        # The usual pair (a comparator's two cells, a combine's source and target): the
        # rules below for two ports, without their loops (a step's fixed cost).
        (first, first_rank, first_where), (second, second_rank, second_where) = ports
        if not len(first) or not len(second) or first.item(-1) < second.item(0) \
                or second.item(-1) < first.item(0):
            return True  # disjoint's rule for two: the ranges do not overlap
        if first_where is None and second_where is None and ranked <= RANKS_MAX:
            table = scratch.table(size)
            own = scratch.ranks(first_rank, len(first))
            table[first] = own
            table[second] = scratch.ranks(second_rank, len(second))
            # The last port is ascending (each is): only the first looks.
            return not np.count_nonzero(table.take(first) != own)
    if each_ascending and disjoint([index for index, _, _ in ports]):
        return True  # each port's cells distinct, the ports' ranges disjoint: nothing shared
    if ranked > RANKS_MAX:
        return False  # over 2^31 processors in the global step: the slow path decides
    table = scratch.table(size)
    ranks: list[Ranks] = []
    for index, rank, where in ports:
        every = scratch.ranks(rank, len(index) if where is None else len(where))
        ranks.append(every if where is None else every[where])
    # Every cell touched gets the rank of the last processor to touch it (one scatter per
    # port); a cell touched by two processors then shows a foreign rank to at least one of them
    # (one gather and one comparison per port). Equal ranks mean one processor. When the last
    # port's cells are distinct, each holds its own rank, so only the ports before it look.
    for (index, _, _), rank_of in zip(ports, ranks, strict=True):
        table[index] = rank_of
    looking = len(ports) - 1 if last_ascending else len(ports)
    for (index, _, _), rank_of in zip(ports[:looking], ranks[:looking], strict=True):
        if np.count_nonzero(table.take(index) != rank_of):
            return False
    return True


def few_distinct_cells(ports: list[Port]) -> bool:
    """:func:`distinct_cells` for at most :data:`SMALL` accesses in all, in Python."""
    seen: dict[int, int] = {}
    for port in ports:
        for cell, pid in zip(port.index.tolist(), port.processors.tolist(), strict=True):
            if seen.setdefault(cell, pid) != pid:
                return False
    return True


# ---- the slow path: who met, and which write lands ------------------------------------------


def resolve(
    group: list[Port],
    number: int,
    steps: Sequence[Step],
    model: Model,
    raises: bool,
    violations: list[Violation],
    random: Callable[[], np.random.Generator],
    resolutions: list[Resolution] | None = None,
) -> tuple[Words, Words] | None:
    """Name every violation at the shared cells of one array's ``group`` of ports, and
    resolve their writes.

    Everything is vectorised over the accesses; Python only loops over the violations it
    reports, appending each to ``violations`` (and raising the first if ``raises``), and over
    the cells a model with a :attr:`~pram.Model.resolution` settled without a written value,
    appending each to ``resolutions``. Returns ``(cells, values)`` to store when two
    processors wrote one cell.
    """
    writes = _Flat.of([p for p in group if p.is_write]).by_cell(keep_last=True)
    # A processor writing one cell through two ports was reduced to its later port above,
    # so each run of a cell in ``writes`` holds distinct processors, ascending.
    starts = _runs(writes.cells)
    forbids = model.forbids
    if any(forbids(kind, agree) for kind in Kind for agree in (True, False)):
        reads = (
            _Flat.of([p for p in group if not p.is_write]).by_cell(keep_last=False)
            if model.checks_reads
            else _Flat.empty()
        )
        _judge(group[0].array, number, steps, model, raises, violations, reads, writes, starts)
    if len(starts) == len(writes.cells):
        return None
    cells = writes.cells[starts]
    values, keep = model.settle(writes.values, starts, random(), _cells_of(group[0].array)[cells])
    if model.resolution is not None and resolutions is not None:
        _settled(group[0].array, number, steps, model, writes, starts, values, keep,
                 resolutions)
    if keep is None:
        return cells, values
    return cells[~keep], values[~keep]  # the kept cells are not stored: they stay as they were


def _settled(
    array: Array, number: int, steps: Sequence[Step], model: Model, writes: _Flat,
    starts: Words, landed: Words, keep: Flags | None, resolutions: list[Resolution],
) -> None:
    """Record the cells written by two or more processors where no written value landed."""
    ends = _ends(starts, len(writes.cells))
    shared = ends - starts > 1
    if model.resolution == "kept" and keep is not None:
        settled = shared & keep
    else:  # the collision rules: the cells that hold the symbol
        settled = shared & (landed == COLLISION)
    pids, values, branch = writes.pids.tolist(), writes.values.tolist(), writes.branch.tolist()
    for s, e in zip(starts[settled].tolist(), ends[settled].tolist(), strict=True):
        phases = tuple(dict.fromkeys(steps[b].phase for b in sorted(set(branch[s:e]))))
        resolutions.append(Resolution(
            model.name, str(model.resolution), number, steps[branch[s]].phase, array.name,
            int(writes.cells[s]), tuple(pids[s:e]), tuple(values[s:e]),
            phases if len(phases) > 1 else (), _columns(array)))


def _judge(
    array: Array,
    number: int,
    steps: Sequence[Step],
    model: Model,
    raises: bool,
    violations: list[Violation],
    reads: _Flat,
    writes: _Flat,
    write_starts: Words,
) -> None:
    """Record (or raise) one violation per cell and kind of meeting the model forbids."""
    forbids = model.forbids
    found: list[tuple[Kind, _Flat, Words, Words]] = []
    # write/write: cells with two or more writers.
    ww_agree, ww_differ = forbids(Kind.WRITE_WRITE, True), forbids(Kind.WRITE_WRITE, False)
    if ww_agree or ww_differ:
        ends = _ends(write_starts, len(writes.cells))
        shared = ends - write_starts > 1
        s, e = write_starts[shared], ends[shared]
        if (model.judges_values or ww_agree != ww_differ) and len(s):
            low = np.minimum.reduceat(writes.values, write_starts)[shared]
            high = np.maximum.reduceat(writes.values, write_starts)[shared]
            bad = model.forbids_writes(low, high)
            s, e = s[bad], e[bad]
        found.append((Kind.WRITE_WRITE, writes, s, e))
    if model.checks_reads:
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
    if raises:
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
            if kind is Kind.WRITE_WRITE and model.judges_values
            else ()
        )
        phases = tuple(dict.fromkeys(steps[b].phase for b in sorted(set(branch_list[s_j:e_j]))))
        violation = Violation(
            model.name,
            kind,
            number,
            steps[branch_list[s_j]].phase,
            array.name,
            cell_list[j],
            tuple(pid_list[s_j:e_j]),
            shown,
            phases if len(phases) > 1 else (),
            _columns(array),
        )
        # Recorded before it is raised, so a caught ConflictError still fails assert_erew.
        violations.append(violation)
        if raises:
            raise ConflictError(violation)


def _columns(array: Array) -> int:
    """The columns of a two-dimensional array, 0 for a flat one (for the cells' names)."""
    return array.shape[1] if len(array.shape) == 2 else 0


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
    def of(ports: list[Port]) -> _Flat:
        if not ports:
            return _Flat.empty()
        return _Flat(
            np.concatenate([p.index for p in ports]),
            np.concatenate([p.processors for p in ports]).astype(np.int64, copy=False),
            np.concatenate(
                [p.value if p.value is not None else np.zeros(len(p.index), np.int64)
                 for p in ports]
            ),
            np.concatenate([np.full(len(p.index), p.branch, dtype=np.int64) for p in ports]),
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
