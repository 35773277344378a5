"""The ledgers of a batch's instances (:class:`Ledgers`): what is the same for all once, what
differs one entry per instance; each instance's :class:`pram.Cost` equals its single run's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._numpy import np
from pram.cost import Cost, PhaseCost
from pram.engine.rounds import Joined
from pram.memory import Flags

if TYPE_CHECKING:
    pass

Counts = npt.NDArray[np.int64]

__all__ = ["Ledgers"]


# ---- the ledgers ---------------------------------------------------------------------------


class _Tally:
    """One count of every instance: a part the same for all (a Python int) plus, once some
    step charged instances differently, one entry per instance.

    While instances idle (a pass's ``alive`` flags), the steps charge a count to those taking
    them: a run of such charges under one set of flags is summed (or, for a peak, maxed) as
    a Python int and spread over the flags once (when the flags change or the count is
    read), not once per step. A tally either sums (:meth:`add`) or peaks (:meth:`peak`)."""

    __slots__ = ("_each", "_held", "_mask", "_top", "base")

    def __init__(self) -> None:
        self.base = 0
        self._each: Counts | None = None
        #: Flags of the instances a run of charges was held for (None: none held).
        self._mask: Flags | None = None
        #: What they were held: a sum, and a highest.
        self._held = 0
        self._top = 0

    @property
    def each(self) -> Counts | None:
        """One entry per instance (None while the same for all), the held charges spread."""
        if self._mask is not None:
            self._spread()
        return self._each

    @each.setter
    def each(self, value: Counts | None) -> None:
        if self._mask is not None:
            self._spread()
        self._each = value

    def _spread(self) -> None:
        mask = self._mask
        assert mask is not None
        if self._each is None:
            self._each = np.zeros(len(mask), dtype=np.int64)
        if self._held:
            self._each += self._held * mask
        if self._top:
            np.maximum(self._each, self._top * mask, out=self._each)
        self._mask, self._held, self._top = None, 0, 0

    def add(self, amount: int | Counts, alive: Flags | None, batch: int) -> None:
        if type(amount) is int:
            if alive is None:
                self.base += amount
                return
            if alive is not self._mask:
                if self._mask is not None:
                    self._spread()
                self._mask = alive
            self._held += amount
            return
        each = self.each
        if each is None:
            each = self._each = np.zeros(batch, dtype=np.int64)
        each += amount if alive is None else amount * alive

    def peak(self, amount: int | Counts, alive: Flags | None, batch: int) -> None:
        if type(amount) is int:
            if alive is None:
                if amount > self.base:
                    self.base = amount
                return
            if alive is not self._mask:
                if self._mask is not None:
                    self._spread()
                self._mask = alive
            if amount > self._top:
                self._top = amount
            return
        each = self.each
        if each is None:
            each = self._each = np.zeros(batch, dtype=np.int64)
        np.maximum(each, amount if alive is None else amount * alive, out=each)

    def total(self, i: int) -> int:
        return self.base + (0 if self.each is None else int(self.each[i]))

    def copy(self) -> _Tally:
        made = _Tally()
        made.base, made.each = self.base, None if self.each is None else self.each.copy()
        return made

    def column(self, batch: int, peak: bool) -> Counts:
        """Every instance's count (``peak``: its highest), one entry each."""
        if self.each is None:
            return np.full(batch, self.base, dtype=np.int64)
        if peak:
            return np.maximum(self.each, self.base)
        return self.each + self.base

    def highest(self, i: int) -> int:
        return max(self.base, 0 if self.each is None else int(self.each[i]))


class _Share:
    """A phase's share of every instance's ledger (see :class:`pram.PhaseCost`)."""

    __slots__ = ("local", "max_local", "max_processors", "reads", "round_work", "rounds",
                 "time", "work", "writes")

    def __init__(self) -> None:
        self.time, self.work, self.reads = _Tally(), _Tally(), _Tally()
        self.writes, self.max_processors = _Tally(), _Tally()
        self.local, self.max_local = _Tally(), _Tally()
        self.rounds, self.round_work = _Tally(), _Tally()

    def copy(self) -> _Share:
        made = _Share()
        made.time, made.work, made.reads = self.time.copy(), self.work.copy(), self.reads.copy()
        made.writes, made.max_processors = self.writes.copy(), self.max_processors.copy()
        made.local, made.max_local = self.local.copy(), self.max_local.copy()
        made.rounds, made.round_work = self.rounds.copy(), self.round_work.copy()
        return made

    def charge(self, n: int | Counts, r: int | Counts, w: int | Counts, alive: Flags | None,
               batch: int, newcomers: int | Counts | None = None) -> None:
        """Charge one global step; one that joined the round before it (``newcomers`` not
        None: its processors that did not read there, one count or one per instance) adds
        no round, and to the round's work only its newcomers (:func:`pram.cost.charge`'s
        rule)."""
        if newcomers is None:
            self.rounds.add(1, alive, batch)
            self.round_work.add(n, alive, batch)
        elif type(newcomers) is not int or newcomers:
            self.round_work.add(newcomers, alive, batch)
        self.time.add(1, alive, batch)
        self.work.add(n, alive, batch)
        self.reads.add(r, alive, batch)
        self.writes.add(w, alive, batch)
        self.max_processors.peak(n, alive, batch)


class Ledgers:
    """The ledgers of a batch's instances, counted together: what is the same for all once,
    what differs as one entry per instance. :meth:`cost` makes instance ``i``'s
    :class:`pram.Cost`, equal to the ledger of a single run on its input."""

    def __init__(self, batch: int) -> None:
        self.batch = batch
        self.all = _Share()
        self.loop_tests = _Tally()
        self.local = _Tally()
        self.max_local = _Tally()
        self.phases: dict[str, _Share] = {}
        #: The register operations charged before the step about to be charged (its phases'
        #: share of local work, as a single run's phases take it).
        self.pending = 0
        #: Per global step: its active processors (an int, or one per instance), its phase
        #: labels, and which instances took it (None: all).
        self.steps: list[tuple[int | Counts, tuple[str, ...], Flags | None]] = []

    def charge(self, n: int | Counts, r: int | Counts, w: int | Counts, alive: Flags | None,
               labels: tuple[str, ...], shares: dict[str, list[Any]] | None,
               joined: Joined | None = None) -> None:
        """Charge one global step: ``n`` processors, ``r`` reads, ``w`` writes (ints, or one
        per instance) to the instances ``alive`` (None: all), and each phase its share;
        ``joined``: its part in the round the step before it opened, if it joined it
        (:mod:`pram.engine.rounds`)."""
        batch = self.batch
        self.all.charge(n, r, w, alive, batch, None if joined is None else joined.newcomers)
        if shares:
            for label, (pn, pr, pw) in shares.items():
                share = self.phases.get(label)
                if share is None:
                    share = self.phases[label] = _Share()
                share.charge(pn, pr, pw, alive, batch,
                             None if joined is None else joined.within(label))
                if self.pending:
                    share.local.add(self.pending, alive, batch)
                    share.max_local.peak(self.pending, alive, batch)
        self.pending = 0
        self.steps.append((n, labels, alive))

    def operations(self, count: int, alive: Flags | None) -> None:
        """Charge ``count`` elementwise register operations done between two steps."""
        self.local.add(count, alive, self.batch)
        self.max_local.peak(count, alive, self.batch)
        self.pending = count

    def time(self, i: int) -> int:
        """The steps instance ``i`` took so far."""
        return self.all.time.total(i)

    def copy(self, steps: int | None = None) -> Ledgers:
        """These ledgers as they are now, sharing no count a later charge changes (what a new
        pass of a run starts from); their list of steps shared (it only grows: a snapshot
        keeps it and its length), or with ``steps``, a copy of its first ``steps``."""
        made = Ledgers(self.batch)
        made.all, made.loop_tests = self.all.copy(), self.loop_tests.copy()
        made.local, made.max_local = self.local.copy(), self.max_local.copy()
        made.phases = {label: share.copy() for label, share in self.phases.items()}
        made.steps = self.steps if steps is None else self.steps[:steps]
        return made

    @staticmethod
    def merged(batch: int, parts: Sequence[tuple[Flags, Ledgers]], shared: int) -> Ledgers:
        """One set of ledgers from the passes of a run
        (:meth:`pram.engine.passes.Passes.next_pass`): each instance's counts from ``parts``'
        ledgers whose flags hold it (the pass it finished in), the first ``shared`` steps
        (before the run) common to all."""
        made = Ledgers(batch)

        def pick(tally_of: Any, peak: bool) -> _Tally:
            picked = _Tally()
            picked.each = np.zeros(batch, dtype=np.int64)
            for mine, ledgers in parts:
                tally = tally_of(ledgers)
                if tally is not None:
                    picked.each[mine] = tally.column(batch, peak)[mine]
            return picked

        def share(share_of: Any) -> _Share:
            made = _Share()
            for field in _Share.__slots__:
                setattr(made, field, pick(lambda ledgers, f=field: None if share_of(ledgers)
                                          is None else getattr(share_of(ledgers), f),
                                          field in ("max_processors", "max_local")))
            return made

        made.all = share(lambda ledgers: ledgers.all)
        made.loop_tests = pick(lambda ledgers: ledgers.loop_tests, False)
        made.local = pick(lambda ledgers: ledgers.local, False)
        made.max_local = pick(lambda ledgers: ledgers.max_local, True)
        labels = dict.fromkeys(label for _, ledgers in parts for label in ledgers.phases)
        made.phases = {label: share(lambda ledgers, k=label: ledgers.phases.get(k))
                       for label in labels}
        made.steps = list(parts[0][1].steps[:shared])
        for mine, ledgers in parts:
            both: dict[int, Flags] = {}  # one set of flags per set the pass's steps share
            for n, labels_, alive in ledgers.steps[shared:]:
                took: Flags | None = mine
                if alive is not None:
                    took = both.get(id(alive))
                    if took is None:
                        took = both[id(alive)] = alive & mine
                made.steps.append((n, labels_, took))
        return made

    def costs(self, memory_cells: int | Sequence[int],
              peak_cells: int | Sequence[int]) -> tuple[Cost, ...]:
        """Every instance's ledger, made together: the counts as columns of one array per
        field, the profile and phase labels shared while every instance took every step.
        ``memory_cells`` and ``peak_cells`` are the same for all, or one per instance."""
        batch = self.batch
        cells = [memory_cells] * batch if isinstance(memory_cells, int) else list(memory_cells)
        peaks = [peak_cells] * batch if isinstance(peak_cells, int) else list(peak_cells)

        def column(tally: _Tally) -> list[int]:
            if tally.each is None:
                return [tally.base] * batch
            return (tally.each + tally.base).tolist()  # type: ignore[no-any-return]

        def highest(tally: _Tally) -> list[int]:
            if tally.each is None:
                return [tally.base] * batch
            return np.maximum(tally.each, tally.base).tolist()  # type: ignore[no-any-return]

        every = self.all
        fields = [column(every.time), column(every.work), column(every.reads),
                  column(every.writes), highest(every.max_processors),
                  column(self.loop_tests), column(self.local), highest(self.max_local),
                  column(every.rounds), column(every.round_work)]
        shares = {label: (column(share.time), column(share.work), column(share.reads),
                          column(share.writes), highest(share.max_processors),
                          column(share.local), highest(share.max_local),
                          column(share.rounds), column(share.round_work))
                  for label, share in self.phases.items()}
        uniform = all(alive is None and type(n) is int for n, _, alive in self.steps)
        if uniform:
            profile = [int(n) for n, _, _ in self.steps]
            labels = [labels for _, labels, _ in self.steps]
        else:
            runs = self._runs()
        made = []
        for i in range(batch):
            if uniform:
                mine, phases_of = list(profile), list(labels)
            else:
                mine, phases_of = [], []
                for took, counts, labelled in runs:
                    if took is None or took[i]:
                        mine.extend(counts if type(counts) is list else counts[:, i].tolist())
                        phases_of.extend(labelled)
            phases = {label: PhaseCost(t[i], w[i], r[i], x[i], p[i], o[i], h[i], d[i], e[i])
                      for label, (t, w, r, x, p, o, h, d, e) in shares.items() if t[i]}
            made.append(Cost(
                time=fields[0][i], work=fields[1][i], reads=fields[2][i],
                writes=fields[3][i], max_processors=fields[4][i], memory_cells=cells[i],
                peak_cells=peaks[i], loop_tests=fields[5][i], local=fields[6][i],
                max_local=fields[7][i], rounds=fields[8][i], round_work=fields[9][i],
                profile=mine, step_phases=phases_of, phases=phases,
            ))
        return tuple(made)

    def _runs(self) -> list[tuple[Flags | None, Any, list[tuple[str, ...]]]]:
        """The steps in runs of consecutive steps taken by the same instances (one set of
        flags, as a pass between two departures): each run's flags (None: every instance),
        its processors per step (a list when the same for every instance, else a ``(steps,
        batch)`` array) and its phase labels; an instance's profile is the runs it took, so
        no table of every step by every instance is made."""
        batch = self.batch
        runs: list[tuple[Flags | None, Any, list[tuple[str, ...]]]] = []
        start, steps = 0, self.steps
        for k in range(1, len(steps) + 1):
            if k < len(steps) and steps[k][2] is steps[start][2]:
                continue
            part = steps[start:k]
            counts: Any = [n for n, _, _ in part]
            if any(type(n) is not int for n in counts):
                counts = np.array([np.broadcast_to(n, (batch,)) for n in counts],
                                  dtype=np.int64).reshape(len(part), batch)
            runs.append((part[0][2], counts, [labels for _, labels, _ in part]))
            start = k
        return runs

    def cost(self, i: int, memory_cells: int, peak_cells: int) -> Cost:
        """Instance ``i``'s ledger (what :meth:`costs` makes for all, one instance)."""
        every = self.all
        profile: list[int] = []
        step_phases: list[tuple[str, ...]] = []
        for n, labels, alive in self.steps:
            if alive is not None and not alive[i]:
                continue
            profile.append(n if type(n) is int else int(n[i]))  # type: ignore[index]
            step_phases.append(labels)
        phases = {}
        for label, share in self.phases.items():
            if share.time.total(i):
                phases[label] = PhaseCost(
                    share.time.total(i), share.work.total(i), share.reads.total(i),
                    share.writes.total(i), share.max_processors.highest(i),
                    share.local.total(i), share.max_local.highest(i),
                    share.rounds.total(i), share.round_work.total(i))
        return Cost(
            time=every.time.total(i), work=every.work.total(i), reads=every.reads.total(i),
            writes=every.writes.total(i), max_processors=every.max_processors.highest(i),
            memory_cells=memory_cells, peak_cells=peak_cells,
            loop_tests=self.loop_tests.total(i), local=self.local.total(i),
            max_local=self.max_local.highest(i), rounds=every.rounds.total(i),
            round_work=every.round_work.total(i), profile=profile, step_phases=step_phases,
            phases=phases,
        )
