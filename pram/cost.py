"""What a run cost, counted step by step while it runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from pram._held import HeldCost
from pram._held import put_viewed as _put_viewed
from pram._held import viewed_of as _viewed_of
from pram._numpy import np
from pram.display import CostDisplay
from pram.errors import HonestyError, InputError
from pram.memory import Words


@attrs.define
class PhaseCost:
    """The share of one phase label (and everything nested under it)."""

    time: int = 0
    work: int = 0
    reads: int = 0
    writes: int = 0
    max_processors: int = 0
    #: The elementwise register operations done before the phase's steps, each step's work
    #: counted with the step it leads to (as :attr:`Cost.local` counts it), in all.
    local: int = 0
    #: The most of them before one of the phase's steps.
    max_local: int = 0
    #: Rounds (:mod:`pram.engine.rounds`) with a step in the phase, and their work: the
    #: processors active in the phase's part of each.
    rounds: int = 0
    round_work: int = 0


@attrs.define
class Cost(CostDisplay):
    """Time (steps), work (active processors summed over steps) and the rest of the ledger.

    ``profile`` holds the active processors of every step and ``step_phases`` its phase labels,
    so the activity of a run and Brent's bound can be drawn from what was counted.
    """

    time: int = 0
    work: int = 0
    reads: int = 0
    writes: int = 0
    max_processors: int = 0
    memory_cells: int = 0
    #: The most cells alive at once (allocated and not yet freed by ``Machine.free``).
    peak_cells: int = 0
    #: Loop tests the host made (:class:`pram.loop.Until`): one bit learnt from memory each.
    loop_tests: int = 0
    #: Elementwise register operations the processors did between steps, in all (each one
    #: vectorised over the processors of its register: one operation per processor).
    local: int = 0
    #: The most elementwise register operations done between two steps: the model's "O(1)
    #: local work per step" is this staying constant as the input grows.
    max_local: int = 0
    #: Rounds, the textbooks' steps (a read phase, the local computation, a write phase): a
    #: step that only reads followed by a step that only writes is one round; every other
    #: step is a round by itself (:mod:`pram.engine.rounds`). Counted from the steps as they
    #: run, beside ``time``.
    rounds: int = 0
    #: The work of rounds: the processors active in each round (a joined round's readers and
    #: writers, each once), summed over rounds.
    round_work: int = 0
    profile: list[int] = attrs.field(factory=list)
    step_phases: list[tuple[str, ...]] = attrs.field(factory=list)
    phases: dict[str, PhaseCost] = attrs.field(factory=dict)

    def fresh(self) -> Cost:
        """A copy of this ledger that shares no mutable part with it (the profile, the phase
        labels, the phases): what a run counts into, so an alias of the ledger (or of its
        lists) taken before the run sees none of the run."""
        values = {field.name: getattr(self, field.name) for field in attrs.fields(Cost)}
        return Cost(**values | {
            "profile": list(self.profile),
            "step_phases": list(self.step_phases),
            "phases": {label: attrs.evolve(share) for label, share in self.phases.items()},
        })

    def brent(self, p: int) -> int:
        """Time on ``p`` processors: the sum over steps of max(1, ceil(active / p)).

        A step with no active processor still takes one step, so ``brent(p) == time`` once
        ``p`` reaches the largest step, and ``brent(p) <= work / p + time`` always.
        """
        if isinstance(p, bool) or not isinstance(p, int | np.integer) or p < 1:
            raise InputError(f"p must be a positive integer number of processors (got {p!r})")
        active = self.activity()
        return int(np.maximum(1, (active + p - 1) // p).sum())

    def activity(self) -> Words:
        """Active processors per step, as an array."""
        return np.asarray(self.profile, dtype=np.int64)

    def as_dict(self) -> dict[str, int]:
        """The scalar counts, for JSON, in the order of :data:`SCALARS`."""
        return {name: getattr(self, name) for name in SCALARS}


#: The scalar counts of a ledger, in the order its JSON gives them (:meth:`Cost.as_dict`).
SCALARS = ("time", "work", "reads", "writes", "max_processors", "memory_cells", "peak_cells",
           "local", "max_local", "rounds", "round_work")

class Counted(Cost):
    """What ``m.cost`` is after a run: a copy of the machine's ledger that refuses to be
    rewritten. Were it the ledger itself, a sweep builder could run n^2 work and then set
    ``m.cost.work = n`` before the sweep read it; the copy leaves the machine's own counts
    alone, and assigning a field says so. ``fresh()`` gives a plain :class:`Cost` to change.
    Equal to any :class:`Cost` with the same counts."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise HonestyError(
            f"m.cost.{name} = ... would rewrite the machine's ledger; only the machine counts "
            "(a sweep or a report reads the machine's own): for numbers of your own take "
            "m.cost.fresh(), a copy you may change"
        )

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Cost):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in attrs.fields(Cost))

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self.fresh())  # it reads as the ledger it copies


def counted(cost: Cost) -> Counted:
    """A read-only copy of ``cost`` (:class:`Counted`), sharing no mutable part with it."""
    copy = Counted.__new__(Counted)
    fresh = cost.fresh()
    for field in attrs.fields(Cost):
        object.__setattr__(copy, field.name, getattr(fresh, field.name))
    return copy


def charge(tally: Cost | PhaseCost, processors: int, reads: int, writes: int,
           joined: bool = False, newcomers: int = 0) -> None:
    """Charge one step of ``processors`` active processors, with their reads and writes, to
    ``tally`` (the ledger, or a phase's share of it); a step that ``joined`` the round the
    step before it opened adds no round, and to the round's work only its ``newcomers``, its
    processors that did not read in that round (:class:`pram.engine.rounds.Joined`).

    A single machine's step that joins no round is charged to the ledger by this rule written
    out in :meth:`pram.engine.fast.FastPath._account_one` (a call is a step's fixed cost):
    change both together."""
    if not joined:
        tally.rounds += 1
        tally.round_work += processors
    elif newcomers:
        tally.round_work += newcomers
    tally.time += 1
    tally.work += processors
    tally.reads += reads
    tally.writes += writes
    if processors > tally.max_processors:
        tally.max_processors = processors


def charge_local(tally: PhaseCost, local: int) -> None:
    """Charge to a phase's share the ``local`` register operations done before one of its
    steps (the ledger itself is charged by the machine, the work after the last step too)."""
    tally.local += local
    if local > tally.max_local:
        tally.max_local = local


def local_verdict(most: Sequence[int]) -> str:
    """The verdict on "O(1) local work per step" from the most elementwise register operations
    between two steps at each size of a sweep (smallest first): it holds when the count does
    not grow from the first half of the sizes to the second."""
    if not most:
        return "undetermined"
    half = len(most) // 2
    if max(most) == 0:
        return "holds (no register work)"
    if len(most) < 2:
        return "undetermined"
    return "holds" if max(most[half:]) <= max(most[:half]) else "**grows**"


#: What the ledger shows while a program runs: sizes and time, which the host knows anyway.
#: Everything else (work, reads, writes, active processors, local work and what derives from
#: them) counts processors that chose themselves by data, so it waits for the run's end.
OPEN = frozenset({"time", "memory_cells", "peak_cells", "step_phases"})
#: What of it counts steps, which in a batch is each instance's own.
CLOCK = frozenset({"time", "step_phases"})

#: The ledgers (by id) of batched runs in which instances that left a loop rejoined: their
#: clocks differ from here to the run's end (:func:`split_clocks`).
_SPLIT: set[int] = set()


def split_clocks(cost: Cost, split: bool) -> None:
    """Mark ``cost``, a batched run's ledger, as one whose instances' clocks differ (instances
    that left a loop rejoined the batch: each took its own number of steps), or no longer
    (the run ended). While marked, its view refuses the time: one number would be some
    instance's and not another's."""
    if split:
        _SPLIT.add(id(cost))
    else:
        _SPLIT.discard(id(cost))


def _clock(cost: Cost, name: str) -> None:
    if id(cost) in _SPLIT:
        raise HonestyError(
            f"m.cost.{name} while a batched program runs, after instances that left a loop "
            "rejoined the batch, is not one number: each instance took its own steps; read "
            "m.costs after the run, or run the instances one machine each"
        )


def _time(view: Ledger) -> int:
    cost = _viewed_of(view)
    _clock(cost, "time")
    return cost.time


class Ledger(HeldCost):
    """A read-only view of a machine's :class:`Cost`, which is what ``m.cost`` is during a run.

    ``time`` and the sizes (``memory_cells``, ``peak_cells``, ``step_phases``) read the ledger
    the machine keeps; the data-dependent parts (work, reads, writes, processors, local work,
    the profile, the phases, Brent's bound) raise :class:`pram.HonestyError` until the run
    ends, and so does assigning any field: only the machine counts.
    """

    __slots__ = ()

    def __init__(self, cost: Cost) -> None:
        _put_viewed(self, cost)  # in a slot no name reaches (pram._held)

    # Time is read directly (the machine reads it at every step).
    time = property(_time)
    memory_cells = property(lambda self: _viewed_of(self).memory_cells)
    peak_cells = property(lambda self: _viewed_of(self).peak_cells)

    def __getattr__(self, name: str) -> Any:
        if name not in OPEN:
            raise HonestyError(
                f"m.cost.{name} while a program runs counts processors that chose themselves "
                "by their data; read it after the run (time and sizes are readable now)"
            )
        if name in CLOCK:
            _clock(_viewed_of(self), name)
        value = getattr(_viewed_of(self), name)
        if isinstance(value, list):
            return list(value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise HonestyError(
            f"m.cost.{name} = ... while a program runs rewrites the ledger; only the machine "
            "counts: run steps, and read m.cost after the run"
        )

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    def __repr__(self) -> str:
        return f"Ledger(time={_viewed_of(self).time}, while a program runs)"

    def __reduce__(self) -> Any:
        raise HonestyError("pickling m.cost while a program runs; read m.cost after the run")
