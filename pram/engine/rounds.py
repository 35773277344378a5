"""Rounds: the textbooks' step, counted from the global steps a run takes.

A textbook PRAM step is a *round*: a read phase, the local computation and a write phase.
The machine's global step does either or both, so a round is made of steps by one rule,
decided here once for the single and the batched engine alike:

- a global step that only reads (read ports and no write port, not a loop test) *opens* a
  round;
- the global step right after it *joins* that round when it only writes (write ports and no
  read port), whichever processors take it and whatever its phase labels;
- every other global step is a round by itself.

Which steps make a round is decided by the steps' ports alone, so it is the same for every
instance of a batch. A round's work is the processors active in it: the reading step's and
the writing step's, each processor once (the writers that did not read are added to the
readers: :attr:`Joined.newcomers`, per instance where a batch's processors chose themselves by
data), or a lone step's. A round never spans two runs or two passes of a batch (each starts
with nothing open), and a loop test, whose bit goes to the host, never opens one.

A round whose two steps carry different phase labels is a round of each phase it has a step
in: each phase counts the rounds with a step in it, and as their work the processors active
in its own part of each (its branches of the two steps, each processor once;
:meth:`Joined.within`). A read in phase ``a`` and the write after it in phase ``b`` are one
round of the run, one of ``a`` (its work the readers), one of ``b`` (the writers) and one of
a phase around both (the union). A phase's figures are so made of its own steps alone, as its
time and work are (its rounds at most its steps, their work at most its work), and sibling
phases can add up to more rounds than the run's: by the rounds that span two of them.

The model's checks stay the steps': a joined round's reads are checked among themselves and
its writes among themselves, never a read against a write, which is the textbook's round
(reads before writes: a cell read and written in one round, by different processors, is no
conflict on EREW).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy.typing as npt

from pram._numpy import np
from pram.loop import is_test
from pram.memory import Flags, Words
from pram.registers.ids import same_processors
from pram.step import Step

__all__ = ["Joined", "Members", "Opened", "take", "take_one"]

Counts = npt.NDArray[np.int64]

#: The processors of a global step, one entry per branch: their ids (an array of ids, the
#: full width of a batch's selection), and for a selection by data in a batch its flags
#: ``(batch, n)`` of which chose themselves (None: every id acts).
Members = Sequence[tuple[Any, Flags | None]]

#: The phases of a global step, one entry per branch: the labels its branch counts in (its
#: phase and the phases around it, ``"a/b"`` giving ``("a", "a/b")``).
Around = Sequence[tuple[str, ...]]

#: A round a reading step left open: its branches' phases and its processors.
Opened = tuple[Around, Members]


class Joined:
    """A writing step's part in the round the reading step before it opened."""

    __slots__ = ("_around", "_opened", "_writers", "newcomers")

    def __init__(self, opened: Opened, writers: Members, around: Around) -> None:
        self._opened, self._writers, self._around = opened, writers, around
        #: What the step adds to the round's work: its processors that did not read in the
        #: round (an int, or one count per instance of a batch).
        self.newcomers: int | Counts = _newcomers(writers, opened[1])

    def within(self, label: str) -> int | Counts | None:
        """What the step adds to the work of phase ``label``'s part of the round: its
        processors in the phase that did not read there; or None when no reading branch is
        in the phase, where the step is a round of the phase by itself."""
        around, readers = self._opened
        if len(around) == 1 == len(self._around):  # the usual round: one branch each
            return self.newcomers if label in around[0] else None
        reading = [r for a, r in zip(around, readers, strict=True) if label in a]
        if not reading:
            return None
        return _newcomers([w for a, w in zip(self._around, self._writers, strict=True)
                           if label in a], reading)


def take(before: Opened | None, steps: Sequence[Step], around: Around,
         members: Members | None = None) -> tuple[Joined | None, Opened | None]:
    """The global step ``steps`` (its branches' phases ``around``) taken after ``before`` was
    left open: its part in that round when it joins it (it only writes), or None; and the
    round it leaves open (it only reads, and is not a loop test), or None.

    ``members`` are the step's processors (None: each branch's ids, without flags)."""
    if len(steps) == 1:  # the usual global step, without a generator's cost
        return take_one(before, steps[0], around[0], members)
    reads = any(s.reads for s in steps)
    writes = any(s.writes for s in steps)
    if reads:
        if writes or any(is_test(s) for s in steps):
            return _ALONE
        return None, (around, _members(steps) if members is None else members)
    if not writes or before is None:
        return _ALONE
    return Joined(before, _members(steps) if members is None else members, around), None


def take_one(before: Opened | None, step: Step, around: tuple[str, ...],
             members: Members | None = None) -> tuple[Joined | None, Opened | None]:
    """:func:`take` for a global step of one ``step`` (the usual one: a single machine's
    accounting asks this for every step), in the phases ``around``."""
    if step.reads:
        if step.writes or is_test(step):
            return _ALONE
        return None, ((around,), ((step.processors, None),) if members is None else members)
    if not step.writes or before is None:
        return _ALONE
    return Joined(before, ((step.processors, None),) if members is None else members,
                  (around,)), None


#: What a step that neither joins a round nor opens one gives.
_ALONE: tuple[None, None] = (None, None)


def _members(steps: Sequence[Step]) -> Members:
    """Each branch's ids, without flags."""
    return tuple((s.processors, None) for s in steps)


def _newcomers(writers: Members, readers: Members) -> int | Counts:
    """How many acting writing processors are not among the acting reading ones (per
    instance, where a batch's processors chose themselves by data)."""
    if len(writers) == 1 == len(readers):
        (wids, wrows), (rids, rrows) = writers[0], readers[0]
        if wrows is rrows and (wids is rids or same_processors(wids, rids)):
            return 0  # the same processors (the usual round)
    elif len(writers) == len(readers) and all(
            w[1] is r[1] and (w[0] is r[0] or same_processors(w[0], r[0]))
            for w, r in zip(writers, readers, strict=True)):
        return 0  # the same processors, branch by branch (the usual round)
    wanted = _ids(writers)
    if not len(wanted):
        return 0
    ids = _ids(readers)
    wrows, rrows = _rows(writers), _rows(readers)
    if not len(ids):  # nobody read: every acting writer is new
        return len(wanted) if wrows is None else np.count_nonzero(wrows, axis=1).astype(np.int64)
    # The distinct reading ids (an id may stand in two branches, a batch's selections of one
    # processor side by side), and where each writer's id is among them.
    distinct, inverse = np.unique(ids, return_inverse=True)
    at = np.minimum(np.searchsorted(distinct, wanted), len(distinct) - 1)
    found = distinct[at] == wanted
    if wrows is None and rrows is None:
        return int(len(found) - np.count_nonzero(found))
    # Per instance: the writers that act and are not found among the readers that read in
    # that instance (under one of their entries).
    batch = len(wrows if wrows is not None else rrows)
    acting = np.ones((batch, len(wanted)), np.bool_) if wrows is None else wrows
    if rrows is None:
        reading = np.broadcast_to(found, (batch, len(wanted)))
    else:
        read = np.zeros((len(distinct), batch), np.int64)
        np.add.at(read, inverse.reshape(-1), rrows.T.astype(np.int64))
        reading = (read[at].T > 0) & found
    new: Counts = np.count_nonzero(acting & ~reading, axis=1).astype(np.int64)
    return new


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
