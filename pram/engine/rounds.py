"""Rounds: the textbooks' step, counted from the global steps a run takes.

A textbook PRAM step is a *round*: every processor reads, computes on its registers, and
writes. The machine's global step does either or both, so a round is made of steps by one
rule, decided here once for the single and the batched engine alike:

- a global step that only reads (read ports and no write port, not a loop test) *opens* a
  round;
- the global step right after it *joins* that round when it only writes (write ports and no
  read port), carries the same phase labels, and its processors are among the ones that read
  (each processor reads, computes, writes; no value reaches a writer but through its own
  registers);
- every other global step is a round by itself.

A round's work is the processors active in it: the reading step's (the writers are among
them), or a lone step's. A round never spans two runs or two passes of a batch (each starts
with nothing open), and a loop test, whose bit goes to the host, never opens one.

The model's checks stay the steps': a joined round's reads are checked among themselves and
its writes among themselves, never a read against a write, which is the textbook's round
(reads before writes: a cell read and written in one round, by different processors, is no
conflict on EREW).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pram._numpy import np
from pram.loop import is_test
from pram.memory import Flags, Words
from pram.registers.ids import same_processors
from pram.step import Step

__all__ = ["Members", "Opened", "take", "take_one"]

#: The processors of a global step, one entry per branch: their ids (an array of ids, the
#: full width of a batch's selection), and for a selection by data in a batch its flags
#: ``(batch, n)`` of which chose themselves (None: every id acts).
Members = Sequence[tuple[Any, Flags | None]]

#: A round a reading step left open: its phase labels and its processors.
Opened = tuple[tuple[str, ...], Members]


def take(before: Opened | None, steps: Sequence[Step], labels: tuple[str, ...],
         members: Members | None = None) -> tuple[bool | Flags, Opened | None]:
    """The global step ``steps`` taken after ``before`` was left open: whether it joins that
    round (it only writes, under the same phase labels, and its processors are among the
    reading ones; for a batch whose processors chose themselves by data, one answer per
    instance), and the round it leaves open (it only reads, and is not a loop test), or None.

    ``members`` are the step's processors (None: each branch's ids, without flags)."""
    if len(steps) == 1:  # the usual global step, without a generator's cost
        return take_one(before, steps[0], labels, members)
    reads = any(s.reads for s in steps)
    writes = any(s.writes for s in steps)
    if reads:
        if writes or any(is_test(s) for s in steps):
            return _ALONE
        return False, (labels, _members(steps) if members is None else members)
    if not writes or before is None or before[0] != labels:
        return _ALONE
    return _among(_members(steps) if members is None else members, before[1]), None


def take_one(before: Opened | None, step: Step, labels: tuple[str, ...],
             members: Members | None = None) -> tuple[bool | Flags, Opened | None]:
    """:func:`take` for a global step of one ``step`` (the usual one: a single machine's
    accounting asks this for every step)."""
    if step.reads:
        if step.writes or is_test(step):
            return _ALONE
        return False, (labels, ((step.processors, None),) if members is None else members)
    if not step.writes or before is None or before[0] != labels:
        return _ALONE
    return _among(((step.processors, None),) if members is None else members,
                  before[1]), None


#: What a step that neither joins a round nor opens one gives.
_ALONE: tuple[bool, None] = (False, None)


def _members(steps: Sequence[Step]) -> Members:
    """Each branch's ids, without flags."""
    return tuple((s.processors, None) for s in steps)


def _among(writers: Members, readers: Members) -> bool | Flags:
    """Whether every writing processor is a reading one (per instance, where a batch's
    processors chose themselves by data)."""
    if len(writers) == 1 == len(readers):
        (wids, wrows), (rids, rrows) = writers[0], readers[0]
        if wrows is rrows and (wids is rids or same_processors(wids, rids)):
            return True  # the same processors (the usual round)
    elif len(writers) == len(readers) and all(
            w[1] is r[1] and (w[0] is r[0] or same_processors(w[0], r[0]))
            for w, r in zip(writers, readers, strict=True)):
        return True  # the same processors, branch by branch (the usual round)
    ids = _ids(readers)
    wanted = _ids(writers)
    if not len(wanted):
        return True
    wrows, rrows = _rows(writers), _rows(readers)
    if not len(ids):  # nobody read: the round is joined only where nobody writes
        return False if wrows is None else ~wrows.any(axis=1)
    # The distinct reading ids (an id may stand in two branches, a batch's selections of one
    # processor side by side), and where each writer's id is among them.
    distinct, inverse = np.unique(ids, return_inverse=True)
    at = np.minimum(np.searchsorted(distinct, wanted), len(distinct) - 1)
    found = distinct[at] == wanted
    if wrows is None and rrows is None:
        return bool(found.all())
    # Per instance: every writer that acts is found among the readers, and reads there in
    # that instance under one of its entries.
    batch = len(wrows if wrows is not None else rrows)
    acting = np.ones((batch, len(wanted)), np.bool_) if wrows is None else wrows
    if rrows is None:
        reading = np.broadcast_to(found, (batch, len(wanted)))
    else:
        read = np.zeros((len(distinct), batch), np.int64)
        np.add.at(read, inverse.reshape(-1), rrows.T.astype(np.int64))
        reading = (read[at].T > 0) & found
    ok: Flags = ~(acting & ~reading).any(axis=1)
    return ok


def _ids(members: Members) -> Words:
    """The ids of every branch, one after another."""
    parts = [np.asarray(ids, dtype=np.int64).reshape(-1) for ids, _ in members]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _rows(members: Members) -> Any:
    """The flags of every branch side by side (a branch without flags: all acting), or None
    when no branch has any."""
    if all(rows is None for _, rows in members):
        return None
    batch = next(len(rows) for _, rows in members if rows is not None)
    return np.concatenate([np.ones((batch, len(ids)), np.bool_) if rows is None else rows
                           for ids, rows in members], axis=1)
